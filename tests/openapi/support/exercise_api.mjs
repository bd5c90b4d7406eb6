// Real calls to the main routes of every plugin (the Argos upload flow, a deployment, reviews,
// comments, projects, analytics, the web session, a few refusals), each answer handed to
// `check(method, pathTemplate, {status, body, contentType})`. Returns how many were checked.
import { createHash } from "node:crypto";
import { patternPng } from "../../e2e/support/png.mjs";

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const sha1 = (text) => createHash("sha1").update(text).digest("hex");

export async function exerciseApi(server, check) {
  let count = 0;
  const call = async (method, template, { values = {}, token = server.projectToken, body, query, raw } = {}) => {
    const path = template.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(values[name]));
    const url = raw ?? new URL(`${server.url}/v2${path}`);
    for (const [name, value] of Object.entries(query ?? {})) url.searchParams.append(name, value);
    const response = await fetch(url, {
      method: method.toUpperCase(),
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined && !(body instanceof FormData) && !(body instanceof Buffer)
          ? { "Content-Type": "application/json" }
          : {}),
      },
      body: body === undefined || body instanceof FormData || body instanceof Buffer ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json = text;
    try {
      json = JSON.parse(text);
    } catch {}
    check(method, template, {
      status: response.status,
      body: text === "" ? undefined : json,
      contentType: response.headers.get("content-type"),
    });
    count += 1;
    return { status: response.status, body: json };
  };
  const pat = server.personalAccessToken;

  await call("get", "/healthz", { token: null });
  await call("get", "/readyz", { token: null });
  await call("get", "/_loupe/session", { token: null });
  await call("get", "/project", { token: null }); // 401
  await call("post", "/builds", { body: {} }); // 400

  const project = (await call("get", "/project")).body;
  const names = { owner: project.account.slug, project: project.name };
  await call("get", "/projects/{owner}/{project}", { values: names, token: pat });
  await call("get", "/accounts/{accountSlug}/projects", { values: { accountSlug: names.owner }, token: pat });
  await call("post", "/projects", { token: pat, body: { name: "openapi-check", accountSlug: names.owner } });

  // Two builds: the first on the default branch is the baseline of the second, which changes
  // one screenshot and adds one.
  const base = patternPng("openapi-base");
  const changed = patternPng("openapi-base", { paint: { x: 4, y: 4, width: 10, height: 10 } });
  const added = patternPng("openapi-added");
  const upload = async (files, commit, branch, extra = {}) => {
    const created = await call("post", "/builds", {
      body: {
        ...extra,
        commit,
        branch,
        screenshots: files.map(([, png]) => ({ key: sha256(png), contentType: "image/png" })),
      },
    });
    for (const target of created.body.screenshots) {
      const png = files.find(([, data]) => sha256(data) === target.key)[1];
      const form = new FormData();
      for (const [name, value] of Object.entries(target.fields)) form.append(name, value);
      form.append("file", new Blob([png], { type: "image/png" }), "screenshot.png");
      await call("post", "/uploads", { raw: new URL(target.postUrl), token: null, body: form });
    }
    const screenshots = files.map(([name, png]) => ({
      key: sha256(png),
      name,
      metadata: {
        url: "https://example.com/",
        viewport: { width: 48, height: 40 },
        colorScheme: "light",
        test: { title: name, titlePath: ["suite", name] },
        browser: { name: "chromium", version: "130" },
        automationLibrary: { name: "@playwright/test", version: "1.49.0" },
        sdk: { name: "@argos-ci/playwright", version: "5.0.0" },
      },
    }));
    const updated = await call("put", "/builds/{buildId}", {
      values: { buildId: created.body.build.id },
      body: { screenshots, metadata: { testReport: { status: "passed" } } },
    });
    return updated.body.build;
  };
  const first = await upload([["home.png", base]], sha1("first"), "main");
  const second = await upload([["home.png", changed], ["new.png", added]], sha1("second"), "feature");
  const buildValues = { ...names, buildNumber: second.number };
  const deadline = Date.now() + 60_000;
  let build = second;
  while (["pending", "progress"].includes(build.status) && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100));
    build = (await call("get", "/projects/{owner}/{project}/builds/{buildNumber}", { values: buildValues })).body;
  }
  if (build.status !== "changes-detected") throw new Error(`build ${second.number}: ${JSON.stringify(build)}`);
  await call("get", "/projects/{owner}/{project}/builds", { values: names, query: { perPage: "5" } });
  await call("get", "/projects/{owner}/{project}/builds/{buildNumber}", { values: { ...names, buildNumber: first.number } });
  await call("get", "/projects/{owner}/{project}/builds/{buildNumber}/diffs", { values: buildValues });
  await call("post", "/baseline", { body: { commits: [sha1("first")] } });
  await call("get", "/projects/{owner}/{project}/builds/{buildNumber}", { values: { ...names, buildNumber: "999" } }); // 401/404

  // Reviews and comments, with the personal access token.
  const comment = await call("post", "/projects/{owner}/{project}/builds/{buildNumber}/comments", {
    values: buildValues,
    token: pat,
    body: { body: "The header moved." },
  });
  const commentValues = { ...buildValues, commentId: comment.body.id };
  await call("post", "/projects/{owner}/{project}/builds/{buildNumber}/comments/{commentId}/reactions", {
    values: commentValues,
    token: pat,
    body: { emoji: "👍" },
  });
  await call("post", "/projects/{owner}/{project}/builds/{buildNumber}/comments/{commentId}/resolve", {
    values: commentValues,
    token: pat,
  });
  await call("get", "/projects/{owner}/{project}/builds/{buildNumber}/comments", { values: buildValues, token: pat });
  await call("post", "/projects/{owner}/{project}/builds/{buildNumber}/subscription", { values: buildValues, token: pat });
  await call("post", "/projects/{owner}/{project}/builds/{buildNumber}/reviews", {
    values: buildValues,
    token: pat,
    body: { conclusion: "APPROVE" },
  });
  await call("get", "/projects/{owner}/{project}/builds/{buildNumber}/reviews", { values: buildValues, token: pat });
  await call("get", "/_loupe/live/{owner}/{project}/{buildNumber}", { values: buildValues, token: pat });

  // Analytics.
  await call("get", "/accounts/{accountSlug}/analytics", {
    values: { accountSlug: names.owner },
    token: pat,
    query: { from: new Date(Date.now() - 86_400_000).toISOString(), groupBy: "day" },
  });
  await call("get", "/projects/{owner}/{project}/analytics/flaky", { values: names, token: pat });

  // The account and its members (the team's only owner keeps their role: a 409).
  const account = { accountSlug: names.owner };
  await call("get", "/accounts/{accountSlug}", { values: account, token: pat });
  await call("patch", "/accounts/{accountSlug}", { values: account, token: pat, body: { defaultUserLevel: "member" } });
  const members = (await call("get", "/accounts/{accountSlug}/members", { values: account, token: pat, query: { orderBy: "name-asc" } })).body;
  const ownerId = members.results.find((member) => member.level === "owner").user.id;
  await call("patch", "/accounts/{accountSlug}/members/{userId}", {
    values: { ...account, userId: ownerId },
    token: pat,
    body: { level: "owner" },
  });
  await call("delete", "/accounts/{accountSlug}/members/{userId}", { values: { ...account, userId: "not-an-id" }, token: pat });

  // A deployment of one file.
  const page = Buffer.from("<!doctype html><title>openapi</title>");
  const deployment = await call("post", "/deployments", {
    body: {
      commit: sha1("first"),
      branch: "main",
      files: [{ path: "index.html", hash: sha256(page), size: page.length, contentType: "text/html" }],
    },
  });
  for (const file of deployment.body.uploadFiles) {
    await call("put", "/uploads/{key}", { raw: new URL(file.uploadUrl), token: null, body: page });
  }
  const deploymentValues = { deploymentId: deployment.body.deploymentId };
  await call("post", "/deployments/{deploymentId}/finalize", { values: deploymentValues });
  await call("get", "/deployments/{deploymentId}", { values: deploymentValues });

  // Tokenless exchange: a malformed token is refused with the error body.
  await call("post", "/auth/github-actions/tokenless/exchange", {
    token: null,
    body: { tokenlessToken: "tokenless-github-bm90IGpzb24", commit: sha1("first"), branch: "main" },
  });
  // OIDC exchange: a token that is no JWT is refused (401) before any issuer is asked.
  await call("post", "/auth/github-actions/oidc/exchange", {
    token: null,
    body: { oidcToken: "not-a-jwt", commit: sha1("first") },
  });
  // The Tests API: a second reference build in which home.png changed gives its test a change.
  const third = await upload([["home.png", changed]], sha1("third"), "main", { referenceCommit: sha1("first") });
  const thirdValues = { ...names, buildNumber: third.number };
  let thirdBuild = third;
  while (["pending", "progress"].includes(thirdBuild.status) && Date.now() < deadline + 60_000) {
    await new Promise((done) => setTimeout(done, 100));
    thirdBuild = (await call("get", "/projects/{owner}/{project}/builds/{buildNumber}", { values: thirdValues })).body;
  }
  const tests = (await call("get", "/projects/{owner}/{project}/tests", { values: names, query: { metricsPeriod: "LAST_24_HOURS" } })).body;
  const testValues = { ...names, testId: tests.results[0].id };
  await call("get", "/projects/{owner}/{project}/tests/{testId}", { values: testValues });
  const changes = (await call("get", "/projects/{owner}/{project}/tests/{testId}/changes", { values: testValues })).body;
  if (changes.results.length !== 1) throw new Error(`changes of ${testValues.testId}: ${JSON.stringify(changes)}`);
  await call("post", "/projects/{owner}/{project}/changes/{changeId}/ignore", {
    values: { ...names, changeId: changes.results[0].id },
    token: pat,
  });
  await call("get", "/projects/{owner}/{project}/ignored-changes", { values: names });
  await call("get", "/projects/{owner}/{project}/tests/{testId}", { values: { ...names, testId: "NOPE-FW2D" } }); // 404
  await call("get", "/projects/{owner}/{project}/tests", { values: names, query: { metricsPeriod: "LAST_YEAR" } }); // 400
  return count;
}
