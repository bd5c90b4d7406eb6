// Validates real answers against the schemas Loupe's document declares for them (JSON Schema
// 2020-12, the dialect of OpenAPI 3.1), so a declaration that does not match what the server
// sends fails.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const pointer = (...parts) => parts.map((part) => String(part).replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

export class ResponseChecker {
  failures = [];
  #ajv = new Ajv2020({ strict: false, allErrors: true });
  #document;

  constructor(document) {
    this.#document = document;
    addFormats(this.#ajv);
    this.#ajv.addSchema(document, "loupe-openapi");
  }

  /**
   * What is wrong with the document's JSON Schemas (the OpenAPI validator checks the document's
   * structure, not the schemas inside it): each named schema and each body and parameter schema
   * must be valid JSON Schema 2020-12, and each must compile (every $ref resolves).
   */
  schemaProblems() {
    const problems = [];
    const visit = (schema, at) => {
      if (!this.#ajv.validateSchema(schema)) {
        problems.push(`${at}: ${this.#ajv.errorsText(this.#ajv.errors)}`);
        return;
      }
      try {
        this.#ajv.getSchema(`loupe-openapi#/${at}`);
      } catch (error) {
        problems.push(`${at}: ${error.message}`);
      }
    };
    for (const [name, schema] of Object.entries(this.#document.components.schemas)) {
      visit(schema, pointer("components", "schemas", name));
    }
    for (const [path, item] of Object.entries(this.#document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === "servers") continue;
        (operation.parameters ?? []).forEach((parameter, index) =>
          visit(parameter.schema, pointer("paths", path, method, "parameters", index, "schema")),
        );
        for (const [media, content] of Object.entries(operation.requestBody?.content ?? {})) {
          visit(content.schema, pointer("paths", path, method, "requestBody", "content", media, "schema"));
        }
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const [media, content] of Object.entries(response.content ?? {})) {
            visit(content.schema, pointer("paths", path, method, "responses", status, "content", media, "schema"));
          }
        }
      }
    }
    return problems;
  }

  /** Checks one answer of `method path` (the path as the document names it). */
  check(method, path, { status, body, contentType }) {
    const where = `${method.toUpperCase()} ${path} → ${status}`;
    const operation = this.#document.paths[path]?.[method];
    if (!operation) {
      this.failures.push(`${where}: no such operation in the document`);
      return;
    }
    const key = String(status) in operation.responses ? String(status) : "default";
    const declared = operation.responses[key];
    if (!declared || (key === "default" && status < 400)) {
      this.failures.push(`${where}: status not declared (declared: ${Object.keys(operation.responses).join(", ")})`);
      return;
    }
    const media = (contentType ?? "").split(";")[0].trim();
    if (!declared.content) {
      if (body !== undefined && body !== null && body !== "") {
        this.failures.push(`${where}: a body where the document declares none`);
      }
      return;
    }
    if (!(media in declared.content) && !("*/*" in declared.content)) {
      this.failures.push(`${where}: content type ${media} not declared (${Object.keys(declared.content).join(", ")})`);
      return;
    }
    if (media !== "application/json") return;
    const ref = `loupe-openapi#/${pointer("paths", path, method, "responses", key, "content", "application/json", "schema")}`;
    const validate = this.#ajv.getSchema(ref);
    if (!validate(body)) {
      const errors = validate.errors.map((e) => `  ${e.instancePath || "(root)"} ${e.message} ${JSON.stringify(e.params)}`);
      this.failures.push(`${where}: the answer does not match the declared schema\n${errors.join("\n")}\n  answer: ${JSON.stringify(body).slice(0, 600)}`);
    }
  }
}
