// GET /openapi.json of a server with every plugin enabled: a valid OpenAPI 3.1 document (a real
// validator), in agreement with the official Argos API client's schema (every operation and
// field the client knows, minus the commented allow-list), and honest: real answers of the
// main routes validate against the schemas it declares.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { LoupeServer, missingPrerequisite } from "../e2e/support/server.mjs";

const allPlugins = "auth,builds,reviews,deployments,web,analytics,git,sso,oauth,automation,notifications,media";
const installed = existsSync(fileURLToPath(new URL("node_modules/@argos-ci/api-client", import.meta.url)));
const skip = missingPrerequisite() ?? (installed ? null : "tests/openapi has no node_modules (run npm ci there)");

// The npm packages (the validator, the Argos client, ajv) are loaded only when installed.
const { Validator } = installed ? await import("@seriousme/openapi-schema-validator") : {};
const { judgeGaps } = installed ? await import("./support/allowed_gaps.mjs") : {};
const { readClientSchema } = installed ? await import("./support/client_schema.mjs") : {};
const { compareWithClient } = installed ? await import("./support/compare.mjs") : {};
const { ResponseChecker } = installed ? await import("./support/response_checker.mjs") : {};
const { exerciseApi } = installed ? await import("./support/exercise_api.mjs") : {};

if (skip) console.log(`# skipped: ${skip}`);

describe("GET /openapi.json", { skip: skip ?? false }, () => {
  let server;
  let document;

  before(async () => {
    server = await LoupeServer.start({
      settings: [`plugins.enabled=${allPlugins}`, "plugins.deployments.domain=deploy.example.com"],
    });
    const response = await fetch(`${server.url}/openapi.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type"), /^application\/json/);
    document = await response.json();
  });

  after(async () => {
    await server?.stop();
  });

  test("is a valid OpenAPI 3.1 document of this server", async () => {
    const result = await new Validator().validate(structuredClone(document));
    assert.equal(result.valid, true, `validator errors:\n${JSON.stringify(result.errors, null, 2)}`);
    assert.deepEqual(new ResponseChecker(document).schemaProblems(), []);
    assert.equal(document.openapi, "3.1.0");
    assert.equal(document.servers[0].url, `${server.url}/v2`);
    assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), [
      "oauth2",
      "personalAccessToken",
      "projectToken",
      "sessionCookie",
    ]);
    // The same document under the Argos base URL, without authentication.
    const underV2 = await fetch(`${server.url}/v2/openapi.json`);
    assert.deepEqual(await underV2.json(), document);
  });

  test("has the routes and the authentication the server enforces", async () => {
    const put = document.paths["/builds/{buildId}"].put;
    assert.deepEqual(put.security, [{ projectToken: [] }]);
    assert.deepEqual(
      put.parameters.map((p) => [p.in, p.name, p.required]),
      [["path", "buildId", true]],
    );
    // A route declared with a project token answers 401 without one, as the document says.
    const unauthenticated = await fetch(`${server.url}/v2/project`);
    assert.equal(unauthenticated.status, 401);
    assert.ok(document.paths["/project"].get.responses["401"]);
    // A route of the web plugin accepts the browser session cookie where a PAT is accepted.
    const comments = document.paths["/projects/{owner}/{project}/builds/{buildNumber}/comments"].post;
    assert.deepEqual(comments.security, [{ personalAccessToken: [] }, { sessionCookie: [] }, { oauth2: ["comments:write"] }]);
    // An access token of `argos login` needs the scope Argos names; sending builds takes none.
    assert.deepEqual(document.paths["/accounts/{accountSlug}/members"].get.security.at(-1), { oauth2: ["account:admin"] });
    assert.ok(!document.paths["/builds"].post.security.some((requirement) => "oauth2" in requirement));
    // The deployments' site host route is served on its own host names.
    assert.match(document.paths["/{path}"].servers[0].url, /\{site\}\.deploy\.example\.com$/);
    assert.equal(document.paths["/healthz"].get.security.length, 0);
  });

  test("has every operation and field the official Argos API client uses", () => {
    const client = readClientSchema();
    const gaps = compareWithClient(client, document);
    const { failures, allowed, stale } = judgeGaps(gaps);
    console.log(`# @argos-ci/api-client ${client.version}: ${client.operations.length} operations`);
    console.log(`# known differences (allow-list):\n${allowed.map((g) => `#   ${g}`).join("\n")}`);
    assert.deepEqual(failures, [], `gaps between the client's schema and Loupe's document:\n${failures.join("\n")}`);
    assert.deepEqual(stale, [], `allow-list entries that match no gap any more (remove them):\n${stale.join("\n")}`);

    // A drift fails: a Build without its status, a request field Loupe stops reading, a changed type.
    const drifted = structuredClone(document);
    delete drifted.components.schemas.Build.properties.status;
    delete drifted.paths["/builds"].post.requestBody.content["application/json"].schema.allOf[0].properties.prNumber;
    drifted.components.schemas.Deployment.properties.url = { type: "integer" };
    const driftGaps = compareWithClient(client, drifted);
    for (const expected of [
      "GET /projects/{owner}/{project}/builds/{buildNumber} response.status: Loupe does not declare it (the client requires it)",
      "POST /builds request.prNumber: Loupe does not declare it",
      "GET /deployments/{deploymentId} response.url: Loupe may send number, the client accepts string",
    ]) {
      assert.ok(driftGaps.includes(expected), `no gap "${expected}" in:\n${driftGaps.join("\n")}`);
    }
    // The calls the Argos CLI makes for an upload and a deployment are all there, in full.
    for (const [method, path] of [
      ["post", "/builds"],
      ["put", "/builds/{buildId}"],
      ["post", "/builds/finalize"],
      ["get", "/project"],
      ["post", "/deployments"],
      ["post", "/deployments/{deploymentId}/finalize"],
      ["post", "/auth/github-actions/tokenless/exchange"],
      ["post", "/auth/github-actions/oidc/exchange"],
    ]) {
      const operation = document.paths[path]?.[method];
      assert.ok(operation, `${method} ${path}`);
      assert.notEqual(operation.summary, "Undescribed route", `${method} ${path}`);
    }
  });

  test("describes what the server really answers", async () => {
    const checker = new ResponseChecker(document);
    const checked = await exerciseApi(server, (method, path, response) => checker.check(method, path, response));
    assert.deepEqual(checker.failures, [], checker.failures.join("\n\n"));
    assert.ok(checked >= 30, `only ${checked} answers checked`);
    // An answer that does not match its declaration is caught.
    checker.check("post", "/builds", { status: 201, body: { build: { id: 5 } }, contentType: "application/json" });
    checker.check("get", "/project", { status: 418, body: {}, contentType: "application/json" });
    assert.equal(checker.failures.length, 2, checker.failures.join("\n"));
  });
});
