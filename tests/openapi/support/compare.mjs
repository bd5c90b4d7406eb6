// Compares the operations of the Argos API client with Loupe's OpenAPI document and lists the
// gaps, one line each:
//   "GET /me: not in Loupe's document"
//   "POST /builds request.name: Loupe does not declare it"
//   "GET /project response.summaryCheck: Loupe does not declare it (the client requires it)"
// Direction matters: in a request the client writes and Loupe reads (every field the client may
// send must be declared with the types it sends, and Loupe may not require what the client may
// leave out); in a response Loupe writes and the client reads (every field the client reads
// must be declared, with types the client accepts, and required where the client requires it).

const kindsOf = (schema, resolve, seen = new Set()) => {
  schema = resolve(schema);
  if (!schema || typeof schema !== "object") return new Set(["any"]);
  if (seen.has(schema)) return new Set(["any"]);
  seen.add(schema);
  const kinds = new Set();
  const add = (kind) => kinds.add(kind === "integer" ? "number" : kind);
  if (schema.not && Object.keys(schema.not).length === 0) return kinds;  // never
  if (Array.isArray(schema.type)) schema.type.forEach(add);
  else if (schema.type) add(schema.type);
  const literals = "const" in schema ? [schema.const] : schema.enum;
  for (const value of literals ?? []) {
    add(value === null ? "null" : Array.isArray(value) ? "array" : typeof value);
  }
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    for (const kind of kindsOf(branch, resolve, seen)) kinds.add(kind);
  }
  if (schema.allOf) {
    // An intersection: the kinds every part allows ("any" parts allow everything).
    let common = null;
    for (const part of schema.allOf) {
      const partKinds = kindsOf(part, resolve, seen);
      if (partKinds.has("any")) continue;
      common = common ? new Set([...common].filter((kind) => partKinds.has(kind))) : partKinds;
    }
    for (const kind of common ?? ["any"]) kinds.add(kind);
  }
  if (kinds.size === 0 && !schema.anyOf && !schema.oneOf && !schema.allOf && !literals) {
    kinds.add(schema.properties ? "object" : schema.items ? "array" : "any");
  }
  return kinds;
};

/** The object shape of a schema: {properties: Map(name → [schemas]), required: Set}. */
const objectOf = (schema, resolve, seen = new Set()) => {
  schema = resolve(schema);
  const shape = { properties: new Map(), required: new Set(), open: false };
  if (!schema || typeof schema !== "object" || seen.has(schema)) return shape;
  seen.add(schema);
  const addProperty = (name, definition) => {
    if (!shape.properties.has(name)) shape.properties.set(name, []);
    shape.properties.get(name).push(definition);
  };
  for (const [name, definition] of Object.entries(schema.properties ?? {})) addProperty(name, definition);
  for (const name of schema.required ?? []) shape.required.add(name);
  if (schema.additionalProperties && !schema.properties) shape.open = true;
  for (const part of schema.allOf ?? []) {
    const inner = objectOf(part, resolve, seen);
    for (const [name, definitions] of inner.properties) definitions.forEach((d) => addProperty(name, d));
    inner.required.forEach((name) => shape.required.add(name));
    shape.open ||= inner.open;
  }
  // Alternatives: every property any of them has; required only where all object ones require.
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]
    .filter((branch) => kindsOf(branch, resolve).has("object"))
    .map((branch) => objectOf(branch, resolve, seen));
  for (const inner of branches) {
    for (const [name, definitions] of inner.properties) definitions.forEach((d) => addProperty(name, d));
    shape.open ||= inner.open;
  }
  if (branches.length > 0) {
    const common = [...branches[0].required].filter((name) => branches.every((b) => b.required.has(name)));
    common.forEach((name) => shape.required.add(name));
  }
  return shape;
};

const itemsOf = (schema, resolve) => {
  schema = resolve(schema);
  const items = [];
  if (!schema || typeof schema !== "object") return items;
  if (schema.items) items.push(schema.items);
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    items.push(...itemsOf(branch, resolve));
  }
  return items;
};

const union = (schemas) => (schemas.length === 1 ? schemas[0] : { anyOf: schemas });
const list = (kinds) => [...kinds].sort().join("|");

/**
 * Gaps between the client's schema and Loupe's at `where`. `direction`: "request" (the client
 * writes) or "response" (Loupe writes).
 */
function compareSchemas(direction, client, loupe, where, context, gaps, depth = 0) {
  if (depth > 12 || client === undefined || loupe === undefined) return;
  const clientKinds = kindsOf(client, context.client);
  const loupeKinds = kindsOf(loupe, context.loupe);
  if (clientKinds.has("any") || loupeKinds.has("any")) return;
  const [writer, reader, writerName, readerName] =
    direction === "request"
      ? [clientKinds, loupeKinds, "the client may send", "Loupe accepts"]
      : [loupeKinds, clientKinds, "Loupe may send", "the client accepts"];
  const unreadable = [...writer].filter((kind) => !reader.has(kind));
  if (unreadable.length > 0) {
    gaps.push(`${where}: ${writerName} ${list(unreadable)}, ${readerName} ${list(reader)}`);
  }
  if (clientKinds.has("object") && loupeKinds.has("object")) {
    const clientShape = objectOf(client, context.client);
    const loupeShape = objectOf(loupe, context.loupe);
    for (const [name, definitions] of clientShape.properties) {
      const at = `${where}.${name}`;
      if (!loupeShape.properties.has(name)) {
        if (loupeShape.open) continue;
        const required = clientShape.required.has(name) ? " (the client requires it)" : "";
        gaps.push(`${at}: Loupe does not declare it${direction === "response" ? required : ""}`);
        continue;
      }
      if (direction === "response" && clientShape.required.has(name) && !loupeShape.required.has(name)) {
        gaps.push(`${at}: the client requires it, Loupe may leave it out`);
      }
      if (direction === "request" && loupeShape.required.has(name) && !clientShape.required.has(name)) {
        gaps.push(`${at}: Loupe requires it, the client may leave it out`);
      }
      compareSchemas(direction, union(definitions), union(loupeShape.properties.get(name)), at, context, gaps, depth + 1);
    }
    if (direction === "request") {
      for (const name of loupeShape.required) {
        if (!clientShape.properties.has(name) && !clientShape.open) {
          gaps.push(`${where}.${name}: Loupe requires it, the client never sends it`);
        }
      }
    }
  }
  if (clientKinds.has("array") && loupeKinds.has("array")) {
    const clientItems = itemsOf(client, context.client);
    const loupeItems = itemsOf(loupe, context.loupe);
    if (clientItems.length && loupeItems.length) {
      compareSchemas(direction, union(clientItems), union(loupeItems), `${where}[]`, context, gaps, depth + 1);
    }
  }
}

function resolverFor(schemas) {
  return (schema) => {
    const seen = new Set();
    while (schema && typeof schema === "object" && typeof schema.$ref === "string") {
      if (seen.has(schema.$ref)) return {};
      seen.add(schema.$ref);
      const name = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
      schema = name ? schemas[name] : undefined;
    }
    return schema;
  };
}

const jsonSchemaOf = (content) => content?.["application/json"]?.schema;

/** Every gap between the client's operations and Loupe's document, sorted. */
export function compareWithClient(client, document) {
  const context = {
    client: resolverFor(client.schemas),
    loupe: resolverFor(document.components?.schemas ?? {}),
  };
  const gaps = [];
  for (const operation of client.operations) {
    const name = `${operation.method.toUpperCase()} ${operation.path}`;
    const loupe = document.paths?.[operation.path]?.[operation.method];
    if (!loupe) {
      gaps.push(`${name}: not in Loupe's document`);
      continue;
    }
    const parameters = loupe.parameters ?? [];
    for (const where of ["path", "query"]) {
      for (const parameter of operation.parameters[where]) {
        if (!parameters.some((p) => p.in === where && p.name === parameter)) {
          gaps.push(`${name} ${where} parameter ${parameter}: Loupe does not declare it`);
        }
      }
    }
    if (operation.requestBody) {
      const body = jsonSchemaOf(loupe.requestBody?.content);
      if (!body) gaps.push(`${name} request: Loupe declares no JSON body`);
      else compareSchemas("request", operation.requestBody, body, `${name} request`, context, gaps);
    }
    const clientSuccess = Object.keys(operation.responses).filter((status) => /^2/.test(status));
    const loupeSuccess = Object.keys(loupe.responses ?? {}).filter((status) => /^2/.test(status));
    const shared = clientSuccess.filter((status) => loupeSuccess.includes(status));
    if (clientSuccess.length && !shared.length) {
      gaps.push(`${name} response: the client expects ${clientSuccess.join("|")}, Loupe answers ${loupeSuccess.join("|") || "nothing"}`);
    }
    for (const status of shared) {
      const clientBody = operation.responses[status];
      if (!clientBody) continue;
      const loupeBody = jsonSchemaOf(loupe.responses[status].content);
      if (!loupeBody) gaps.push(`${name} response ${status}: Loupe declares no JSON body`);
      else compareSchemas("response", clientBody, loupeBody, `${name} response`, context, gaps);
    }
  }
  return [...new Set(gaps)].sort();
}
