// Single sign-on against a real OpenID provider (npm `oidc-provider`, with its development login
// and consent forms) in Debian's Chromium: the sign-in page lists the provider, the browser goes
// there and comes back signed in; the provider's groups give and take team roles at each sign-in;
// a team open to the person's email domain takes them in, and an invite link's page joins a team;
// an address on another domain, an unverified address and a callback carried to another browser
// are refused and sign nobody in.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { missingNodeModules, node22 } from "../e2e/support/cli.mjs";
import { LoupeServer, missingPrerequisite } from "../e2e/support/server.mjs";
import { launchChromium, missingBrowser, newPage } from "./support/browser.mjs";
import { keepScreenshot } from "./support/baseline.mjs";

let Provider = null;
try {
  ({ default: Provider } = await import("oidc-provider"));
} catch {}

const skip = missingPrerequisite() ?? missingNodeModules() ?? missingBrowser() ?? (Provider ? null : "npm ci in tests/browser (oidc-provider)");

/** The people the provider knows, by login name; tests change their groups between sign-ins. */
const people = {
  alice: { email: "Alice@Example.com", email_verified: true, name: "Alice Example", groups: ["design"] },
  bob: { email: "bob@elsewhere.org", email_verified: true, name: "Bob", groups: ["design"] },
  carol: { email: "carol@example.com", email_verified: false, name: "Carol", groups: [] },
  dan: { email: "dan@example.com", email_verified: true, name: "Dan", groups: [] },
};

/** An OpenID provider on a port of its own; its client is configured once Loupe's URL is known. */
async function startProvider() {
  let handler = (request, response) => response.writeHead(503).end();
  const http = createServer((request, response) => handler(request, response));
  await new Promise((done) => http.listen(0, "127.0.0.1", done));
  const issuer = `http://127.0.0.1:${http.address().port}`;
  return {
    issuer,
    configure(loupeUrl, secret) {
      const provider = new Provider(issuer, {
        clients: [{
          client_id: "loupe",
          client_secret: secret,
          redirect_uris: [`${loupeUrl}/_loupe/sso/oidc/corp/callback`],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_basic",
        }],
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
        scopes: ["openid", "email", "profile", "groups"],
        // The claims go into the ID token itself, as Keycloak, Entra ID and Okta put them.
        conformIdTokenClaims: false,
        cookies: { keys: ["oidc-test-cookie-key"] },
        findAccount: async (ctx, id) => ({ accountId: id, claims: async () => ({ sub: `sub-${id}`, ...people[id] }) }),
      });
      handler = provider.callback();
    },
    close: () => new Promise((done) => http.close(done)),
  };
}

describe("single sign-on with an OpenID provider", { skip: skip ?? false }, () => {
  let provider;
  let server;
  let browser;

  before(async () => {
    provider = await startProvider();
    const secretFile = join(mkdtempSync(join(tmpdir(), "loupe-sso-")), "client.secret");
    writeFileSync(secretFile, "client-secret-of-loupe\n", { mode: 0o600 });
    server = await LoupeServer.start({
      node22,
      settings: [
        "plugins.enabled=auth,builds,reviews,web,sso",
        "auth.oidc.providers=corp",
        `auth.oidc.corp.issuer=${provider.issuer}`,
        "auth.oidc.corp.client_id=loupe",
        `auth.oidc.corp.client_secret_file=${secretFile}`,
        "auth.oidc.corp.name=Example SSO",
        "auth.oidc.corp.scopes=openid email profile groups",
        "auth.oidc.corp.email_domains=example.com",
        "auth.oidc.corp.roles=design=default:member, leads=default:owner",
      ],
    });
    provider.configure(server.url, "client-secret-of-loupe");
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.close();
  });

  /** Signs `login` in through the provider in a fresh browser context; returns the page. */
  async function signIn(login, next = "/") {
    const page = await newPage(browser);
    await page.goto(`${server.url}/_loupe/login?next=${encodeURIComponent(next)}`);
    await page.getByRole("link", { name: "Sign in with Example SSO" }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.fill("input[name=login]", login);
    await page.fill("input[name=password]", "any");
    await page.click("button[type=submit]");
    // The development consent form, once per person and client.
    await page.waitForURL((url) => url.origin === server.url || /interaction/.test(url.pathname));
    if (new URL(page.url()).origin === provider.issuer) await page.click("button[type=submit]");
    await page.waitForURL((url) => url.origin === server.url);
    await page.waitForLoadState("networkidle");
    return page;
  }

  const sessionOf = (page) => page.evaluate(() => fetch("/_loupe/session").then((r) => r.json()));
  const roleIn = (slug) => server.query(
    `SELECT m.role FROM team_members m JOIN users u ON u.id = m.user_id JOIN accounts a ON a.id = m.account_id WHERE u.slug = '${slug}' AND a.slug = 'default'`,
  )[0]?.[0];

  test("the sign-in page offers the provider; a first sign-in creates the user and gives the mapped role", async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/_loupe/login`);
    await page.getByRole("link", { name: "Sign in with Example SSO" }).waitFor();
    keepScreenshot("sso-sign-in-page", await page.screenshot());
    await page.context().close();

    const signedIn = await signIn("alice", "/default");
    assert.equal(new URL(signedIn.url()).pathname, "/default", "back where the person was going");
    const session = await sessionOf(signedIn);
    assert.equal(session.user?.slug, "alice");
    assert.equal(session.user?.name, "Alice Example");
    assert.ok(session.accounts.includes("default"), `alice joins the team: ${JSON.stringify(session.accounts)}`);
    assert.ok(session.csrfToken, "a session like any other");
    if (server.canQuery) {
      assert.equal(roleIn("alice"), "member");
      assert.deepEqual(server.query("SELECT email FROM users WHERE slug = 'alice'"), [["alice@example.com"]]);
      // The state and PKCE verifier of a finished sign-in are gone.
      assert.deepEqual(server.query("SELECT COUNT(*) FROM sso_sign_in_attempts"), [["0"]]);
    }
    await signedIn.context().close();
  });

  test("the groups decide the role at every sign-in: promoted, then removed from the team", async () => {
    people.alice.groups = ["design", "leads"];
    let page = await signIn("alice");
    assert.equal((await sessionOf(page)).user.slug, "alice", "the same user, linked by the provider's subject");
    if (server.canQuery) assert.equal(roleIn("alice"), "owner");
    await page.context().close();

    people.alice.groups = [];
    page = await signIn("alice");
    const session = await sessionOf(page);
    assert.equal(session.user.slug, "alice");
    assert.ok(!session.accounts.includes("default"), `removed from the team: ${JSON.stringify(session.accounts)}`);
    if (server.canQuery) assert.equal(roleIn("alice"), undefined);
    await page.context().close();
  });

  test("a team open to the address's domain takes the person in; an invite link opens the join page", async () => {
    server.admin("user", "set-email", "--user", "admin", "--email", "admin@example.com");
    server.admin("account", "create", "--slug", "studio", "--name", "Studio", "--owner", "admin");
    server.admin("account", "create", "--slug", "lab", "--name", "Lab", "--owner", "admin");
    const adminToken = JSON.stringify(server.admin("token", "create", "--user", "admin", "--account", "studio", "--account", "lab")).match(/arp_[A-Za-z0-9_]{36}/)[0];
    const asAdmin = (method, path, body) => server.api(method, path, { token: adminToken, body });
    const opened = await asAdmin("POST", "/accounts/studio/domains", { domain: "example.com" });
    assert.equal(opened.status, 201, opened.text);
    assert.equal((await asAdmin("PATCH", "/accounts/studio", { defaultUserLevel: "contributor" })).status, 200);

    const page = await signIn("dan");
    const session = await sessionOf(page);
    assert.ok(session.accounts.includes("studio"), `dan joins the team open to example.com: ${JSON.stringify(session.accounts)}`);
    assert.ok(!session.accounts.includes("lab"));

    const link = await asAdmin("POST", "/accounts/lab/invite-link/reset");
    assert.equal(link.status, 200, link.text);
    await page.goto(link.body.inviteLink);
    await page.getByRole("heading", { name: "Join Lab?" }).waitFor();
    assert.match(await page.locator(".consent-card").textContent(), /signed in as Dan \(dan\).*as a member/);
    keepScreenshot("join-team", await page.screenshot());
    await page.getByRole("button", { name: "Join Lab" }).click();
    await page.waitForURL((url) => url.pathname === "/lab");
    assert.ok((await sessionOf(page)).accounts.includes("lab"));

    // An invite sent to another address says so, and joins nothing.
    const invites = await asAdmin("POST", "/accounts/studio/invites", { members: [{ email: "erin@example.com", level: "owner" }] });
    assert.equal(invites.status, 201, invites.text);
    await page.goto(invites.body[0].inviteLink);
    await page.getByRole("button", { name: "Join Studio" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    assert.match(await alert.textContent(), /sent to erin@example\.com/);
    await page.context().close();
  });

  test("an address outside the allowed domains and an unverified address sign nobody in", async () => {
    for (const [login, message] of [["bob", /elsewhere\.org/], ["carol", /verified/]]) {
      const page = await signIn(login);
      assert.equal(new URL(page.url()).pathname, "/_loupe/login");
      const alert = page.getByRole("alert");
      await alert.waitFor();
      assert.match(await alert.textContent(), message);
      if (login === "bob") keepScreenshot("sso-refused", await page.screenshot());
      assert.equal((await sessionOf(page)).user, null);
      await page.context().close();
    }
    if (server.canQuery) assert.deepEqual(server.query("SELECT COUNT(*) FROM users WHERE slug IN ('bob', 'carol')"), [["0"]]);
  });

  test("a callback carried to another browser is refused (the state is bound to the browser that started)", async () => {
    const attacker = await newPage(browser);
    let stolen = null;
    // The attacker's browser stops at the provider's redirect back to Loupe and keeps the URL
    // (route() does not see redirect hops, so the provider's redirects are followed here).
    await attacker.route(`${provider.issuer}/**`, async (route) => {
      let response = await route.fetch({ maxRedirects: 0 });
      // The provider's own redirects are followed here, with the context's cookies.
      while (response.headers().location?.startsWith(provider.issuer)) {
        response = await attacker.context().request.get(response.headers().location, { maxRedirects: 0 });
      }
      const location = response.headers().location;
      if (location?.startsWith(`${server.url}/_loupe/sso/oidc/corp/callback`)) {
        stolen = location;
        return route.fulfill({ status: 200, contentType: "text/plain", body: "stopped" });
      }
      return route.fulfill({ response });
    });
    await attacker.goto(`${server.url}/_loupe/login`);
    await attacker.getByRole("link", { name: "Sign in with Example SSO" }).click();
    await attacker.waitForSelector("input[name=login]");
    await attacker.fill("input[name=login]", "alice");
    await attacker.fill("input[name=password]", "any");
    await attacker.click("button[type=submit]");
    const deadline = Date.now() + 15_000;
    while (!stolen && Date.now() < deadline) {
      if (await attacker.locator("button[type=submit]").count()) await attacker.click("button[type=submit]").catch(() => {});
      await new Promise((done) => setTimeout(done, 200));
    }
    assert.ok(stolen, "the provider sent the browser back with a code");
    await attacker.context().close();
    if (server.canQuery) {
      const pending = server.query("SELECT COUNT(*) FROM sso_sign_in_attempts")[0][0];
      assert.ok(Number(pending) >= 1, "the attacker's sign-in is still pending: only the binding refuses it");
    }

    const victim = await newPage(browser);
    await victim.goto(stolen);
    await victim.waitForURL((url) => url.pathname === "/_loupe/login");
    assert.match(await victim.getByRole("alert").textContent(), /another browser/);
    assert.equal((await sessionOf(victim)).user, null);
    await victim.context().close();
  });

  test("an unknown provider, a start without a server-side attempt and a foreign next go nowhere", async () => {
    const start = await fetch(`${server.url}/_loupe/sso/oidc/nope/start`, { redirect: "manual" });
    assert.equal(start.status, 302);
    assert.match(start.headers.get("location"), /^\/_loupe\/login\?next=%2F&error=Unknown/);

    const offsite = await fetch(`${server.url}/_loupe/sso/oidc/corp/start?next=//evil.example/x`, { redirect: "manual" });
    assert.equal(offsite.status, 302);
    assert.ok(offsite.headers.get("location").startsWith(`${provider.issuer}/`), offsite.headers.get("location"));
    const cookie = offsite.headers.get("set-cookie");
    assert.match(cookie, /loupe_sso_state=[A-Za-z0-9_-]{43}; Path=\/_loupe\/sso\/; HttpOnly; SameSite=Lax/);
    if (server.canQuery) {
      assert.deepEqual(server.query("SELECT return_to FROM sso_sign_in_attempts ORDER BY created_at DESC LIMIT 1"), [["/"]]);
    }

    const forged = await fetch(`${server.url}/_loupe/sso/oidc/corp/callback?state=abc&code=xyz`, {
      redirect: "manual",
      headers: { Cookie: "loupe_sso_state=abc" },
    });
    assert.equal(forged.status, 302);
    assert.match(forged.headers.get("location"), /error=This%20sign-in%20expired/);

    const providers = await (await fetch(`${server.url}/_loupe/sso/providers`)).json();
    assert.deepEqual(providers, { providers: [{ id: "corp", name: "Example SSO", startUrl: "/_loupe/sso/oidc/corp/start" }] });
  });
});
