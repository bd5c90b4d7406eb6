// `argos login`, `argos whoami` and `argos logout` of the real Argos CLI (latest) against Loupe's
// authorization server, the consent page approved or denied in Chromium by a signed-in person;
// then the token endpoint's rules: a refresh token rotates once, and presented again it revokes
// the grant.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { GitRepo, clis, describeRun, missingNodeModules, node22, runCli } from "../e2e/support/cli.mjs";
import { LoupeServer, missingPrerequisite } from "../e2e/support/server.mjs";
import { launchChromium, missingBrowser, newPage } from "./support/browser.mjs";
import { keepScreenshot } from "./support/baseline.mjs";

const skip = missingPrerequisite() ?? missingNodeModules() ?? missingBrowser();
const cli = clis.find((c) => c.name === "latest");
const cli4 = clis.find((c) => c.name === "4.x");

describe("argos login through the consent page", { skip: skip ?? false }, () => {
  let server;
  let browser;
  let page;
  let repo;
  let env;

  before(async () => {
    server = await LoupeServer.start({ node22, settings: ["plugins.enabled=auth,builds,reviews,web,oauth"] });
    browser = await launchChromium();
    page = await newPage(browser);
    // The person signs in to the review page (a session cookie in this browser context).
    const signIn = await page.context().request.post(`${server.url}/_loupe/session`, {
      headers: { Authorization: `Bearer ${server.personalAccessToken}` },
    });
    assert.equal(signIn.status(), 201, await signIn.text());
    repo = new GitRepo({ branch: "cli-login" });
    env = { ARGOS_APP_BASE_URL: `${server.url}/`, ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_CLI_DISABLE_BROWSER: "1" };
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Runs `argos login` of `which` CLI, answers its consent page with `decision`; returns the run. */
  async function login(decision, which = cli) {
    const child = spawn(which.node, [which.script, "login"], { cwd: repo.root, env: repo.env(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data) => (stdout += data));
    child.stderr.on("data", (data) => (stderr += data));
    const exited = new Promise((done) => child.on("close", (code) => done(code)));
    const deadline = Date.now() + 30_000;
    while (!/visit:\s+(http\S+)/.test(stdout) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    const authorizeUrl = /visit:\s+(http\S+)/.exec(stdout)?.[1];
    const start = which === cli ? "/oauth/authorize?" : "/auth/cli?";
    assert.ok(authorizeUrl?.startsWith(`${server.url}${start}`), `the CLI printed its URL:\n${stdout}\n${stderr}`);

    await page.goto(authorizeUrl);
    await page.getByRole("heading", { name: "Sign in to Argos CLI?" }).waitFor();
    assert.match(await page.locator(".consent-card").textContent(), /Approve or request changes|Approve builds and request changes/);
    if (decision === "approve" && which === cli) keepScreenshot("oauth-consent", await page.screenshot());
    await page.getByRole("button", { name: decision === "approve" ? "Approve" : "Deny" }).click();
    const code = await Promise.race([exited, new Promise((done) => setTimeout(() => done("timeout"), 30_000))]);
    if (code === "timeout") child.kill("SIGKILL");
    return { code, stdout, stderr, output: `${stdout}\n${stderr}`, args: ["login"], page: page.url() };
  }

  const storedTokens = () => JSON.parse(readFileSync(join(repo.home, ".config/argos-ci/config.json"), "utf8")).oauth;
  const me = (token) => server.api("GET", "/me", { token });

  test("login, whoami, logout", async () => {
    const run = await login("approve");
    assert.equal(run.code, 0, describeRun(cli, run));
    assert.match(run.stdout, /Logged in to Argos successfully/);
    await page.getByRole("heading", { name: "You are signed in to the Argos CLI" }).waitFor();
    assert.equal(new URL(page.url()).pathname, "/auth/cli/success");

    const tokens = storedTokens();
    assert.match(tokens.accessToken, /^argos_oat_[0-9a-f]{40}$/);
    assert.match(tokens.refreshToken, /^argos_ort_[0-9a-f]{40}$/);
    assert.match(tokens.scope, /reviews:write/);
    if (server.canQuery) {
      // Only hashes are stored.
      const stored = server.query("SELECT token_hash FROM oauth_tokens").flat();
      assert.equal(stored.length, 2);
      assert.ok(stored.every((hash) => /^[0-9a-f]{64}$/.test(hash) && !tokens.accessToken.includes(hash)));
    }

    const whoami = await runCli(cli, repo, ["whoami", "--json"], env);
    assert.equal(whoami.code, 0, describeRun(cli, whoami));
    assert.equal(JSON.parse(whoami.stdout).slug, "admin");

    const logout = await runCli(cli, repo, ["logout"], env);
    assert.equal(logout.code, 0, describeRun(cli, logout));
    assert.match(logout.stdout, /Logged out/);
    assert.equal((await me(tokens.accessToken)).status, 401, "logout revoked the grant, the access token with it");
    const after = await runCli(cli, repo, ["whoami"], env);
    assert.notEqual(after.code, 0, describeRun(cli, after));
  });

  test("CLI 4.x: login through /auth/cli, one 90-day token for its code", async () => {
    const configFile = join(repo.home, ".config/argos-ci/config.json");
    const run = await login("approve", cli4);
    assert.equal(run.code, 0, describeRun(cli4, run));
    assert.match(run.stdout, /Logged in to Argos successfully/);
    await page.getByRole("heading", { name: "You are signed in to the Argos CLI" }).waitFor();
    const { token } = JSON.parse(readFileSync(configFile, "utf8"));
    assert.match(token, /^argos_oat_[0-9a-f]{40}$/);
    const whoIsIt = await me(token);
    assert.equal(whoIsIt.status, 200);
    assert.equal(whoIsIt.body.slug, "admin");
    if (server.canQuery) {
      const [[lifetimeMs]] = server.query("SELECT MAX(expires_at - created_at) FROM oauth_tokens WHERE kind = 'access'");
      assert.equal(Number(lifetimeMs), 90 * 24 * 3600 * 1000);
    }

    // The exchange's errors: missing fields, an unknown code.
    const exchange = (body) =>
      fetch(`${server.apiBaseUrl}auth/cli/token`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
        .then(async (r) => ({ status: r.status, body: await r.json() }));
    assert.equal((await exchange({ code: "x" })).status, 400);
    const unknown = await exchange({ code: "x", code_verifier: "y" });
    assert.equal(unknown.status, 401);
    assert.match(unknown.body.error, /Unknown authorization code/);
    // A port that is not one is refused before any page.
    assert.equal((await fetch(`${server.url}/auth/cli?port=99999&state=s&pkce=p`, { redirect: "manual" })).status, 400);
  });

  test("a denied request signs the CLI in to nothing", async () => {
    const run = await login("deny");
    assert.notEqual(run.code, 0, describeRun(cli, run));
    assert.match(run.output, /denied/, describeRun(cli, run));
  });

  test("a refresh token rotates once; presented again, it ends the grant", async () => {
    const run = await login("approve");
    assert.equal(run.code, 0, describeRun(cli, run));
    const first = storedTokens();
    const token = (body) =>
      fetch(`${server.url}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
      }).then(async (r) => ({ status: r.status, body: await r.json(), cache: r.headers.get("cache-control") }));

    const rotated = await token({ grant_type: "refresh_token", refresh_token: first.refreshToken, client_id: "argos-cli" });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.equal(rotated.cache, "no-store");
    assert.equal(rotated.body.token_type, "Bearer");
    assert.equal(rotated.body.expires_in, 3600);
    assert.notEqual(rotated.body.refresh_token, first.refreshToken);
    assert.equal((await me(rotated.body.access_token)).status, 200);

    const replayed = await token({ grant_type: "refresh_token", refresh_token: first.refreshToken, client_id: "argos-cli" });
    assert.equal(replayed.status, 400);
    assert.equal(replayed.body.error, "invalid_grant");
    assert.equal((await me(rotated.body.access_token)).status, 401, "the reuse revoked the whole grant");
    assert.equal((await token({ grant_type: "refresh_token", refresh_token: rotated.body.refresh_token, client_id: "argos-cli" })).status, 400);

    // Bad requests get OAuth's error shape.
    assert.equal((await token({ grant_type: "password" })).body.error, "unsupported_grant_type");
    assert.equal((await token({ grant_type: "authorization_code", code: "x", code_verifier: "y" })).body.error, "invalid_grant");
    const duplicate = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&grant_type=authorization_code",
    });
    assert.equal(duplicate.status, 400);
    assert.equal((await duplicate.json()).error, "invalid_request");
  });

  test("an untrusted redirect URI or client is shown, never followed", async () => {
    const base = { response_type: "code", client_id: "argos-cli", scope: "profile", state: "s", code_challenge: "a".repeat(43), code_challenge_method: "S256" };
    for (const [change, message] of [
      [{ redirect_uri: "https://evil.example/callback" }, /may not be sent to https:\/\/evil\.example/],
      [{ redirect_uri: "http://127.0.0.1:9/callback", client_id: "other" }, /Unknown application/],
      [{ redirect_uri: "http://127.0.0.1:9/callback", scope: "everything" }, /Unknown scope/],
    ]) {
      await page.goto(`${server.url}/oauth/authorize?${new URLSearchParams({ ...base, ...change })}`);
      const alert = page.getByRole("alert");
      await alert.waitFor();
      assert.match(await alert.textContent(), message);
      assert.equal(new URL(page.url()).pathname, "/_loupe/oauth/authorize");
    }
  });

  test("an access token reaches only what its scopes allow; a missing scope is a 403 naming it", async () => {
    // The authorization code flow by hand, for two scopes only, to a local redirect URI.
    let delivered;
    const redirected = new Promise((done) => (delivered = done));
    const callback = createServer((request, response) => {
      delivered(new URL(request.url, "http://127.0.0.1").searchParams);
      response.end("done");
    });
    await new Promise((done) => callback.listen(0, "127.0.0.1", done));
    const redirectUri = `http://127.0.0.1:${callback.address().port}/callback`;
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    try {
      const query = { response_type: "code", client_id: "argos-cli", redirect_uri: redirectUri, scope: "profile projects:read",
        state: "scoped", code_challenge: challenge, code_challenge_method: "S256" };
      await page.goto(`${server.url}/oauth/authorize?${new URLSearchParams(query)}`);
      await page.getByRole("heading", { name: "Sign in to Argos CLI?" }).waitFor();
      await page.getByRole("button", { name: "Approve" }).click();
      const answer = await Promise.race([redirected, new Promise((done) => setTimeout(() => done(null), 15_000))]);
      assert.ok(answer, `the consent page sent no code to ${redirectUri} (page at ${page.url()})`);
      // The callback server answers before the browser ends that navigation: let it end, or the
      // next page.goto is interrupted by it.
      await page.waitForURL((url) => url.pathname === "/callback", { waitUntil: "load" });
      assert.equal(answer.get("state"), "scoped");
      const code = answer.get("code");
      const exchanged = await fetch(`${server.url}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, client_id: "argos-cli", redirect_uri: redirectUri }),
      }).then((r) => r.json());
      const token = exchanged.access_token;
      assert.match(token ?? "", /^argos_oat_/, JSON.stringify(exchanged));
      assert.equal(exchanged.scope, "profile projects:read");

      assert.equal((await me(token)).status, 200);
      assert.equal((await server.api("GET", "projects/default/default/builds", { token })).status, 200);
      const comment = await server.api("POST", "projects/default/default/builds/1/comments", { token, body: { body: "hi" } });
      assert.equal(comment.status, 403, comment.text);
      assert.equal(comment.body.error, "Insufficient scope. This endpoint requires: comments:write.");
      const members = await server.api("GET", "accounts/default/members", { token });
      assert.equal(members.status, 403);
      assert.equal(members.body.error, "Insufficient scope. This endpoint requires: account:admin.");
      const review = await server.api("POST", "projects/default/default/builds/1/reviews", { token, body: { event: "APPROVE" } });
      assert.equal(review.status, 403);
      assert.match(review.body.error, /requires: reviews:write/);
      // The same routes with a personal access token: scopes do not limit it.
      assert.equal((await server.api("GET", "accounts/default/members", { token: server.personalAccessToken })).status, 200);

      // The settings page lists the application with what it may do; Revoke ends its tokens.
      await page.goto(`${server.url}/_loupe/settings`);
      const applications = page.getByRole("region", { name: "Applications" });
      const row = applications.getByRole("row", { name: /profile, projects:read(?!,)/ });
      await row.waitFor();
      assert.match(await row.textContent(), /Argos CLI/);
      if (process.env.LOUPE_SCREENSHOT_DIR) await applications.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "applications.png") });
      assert.equal((await server.api("GET", "_loupe/oauth/grants", { token })).status, 403, "an application does not list grants");
      // Another person neither sees this grant nor revokes it: the grant's id answers 404 for them.
      server.admin("user", "create", "--slug", "olga", "--name", "Olga Other");
      const olga = JSON.stringify(server.admin("token", "create", "--user", "olga")).match(/arp_[A-Za-z0-9_]{36}/)[0];
      const grants = await server.api("GET", "_loupe/oauth/grants", { token: server.personalAccessToken });
      const grant = grants.body.grants.find((g) => g.scopes.join(" ") === "profile projects:read");
      assert.ok(grant, grants.text);
      assert.deepEqual((await server.api("GET", "_loupe/oauth/grants", { token: olga })).body.grants, []);
      assert.equal((await server.api("DELETE", `_loupe/oauth/grants/${grant.id}`, { token: olga })).status, 404);
      assert.equal((await me(token)).status, 200, "the grant outlives another person's attempt");
      await row.getByRole("button", { name: /Revoke Argos CLI/ }).click();
      await row.getByRole("button", { name: "Revoke Argos CLI", exact: true }).click();  // the confirmation
      await row.waitFor({ state: "detached" });
      assert.equal((await me(token)).status, 401);
    } finally {
      await new Promise((done) => callback.close(done));
    }
  });
});
