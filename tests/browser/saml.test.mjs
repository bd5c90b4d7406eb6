// Single sign-on through a real SAML 2.0 identity provider (npm samlify, signing with its own
// key): Chromium signs in from Loupe's sign-in page (HTTP-Redirect AuthnRequest, signed
// Response posted back), a new user is created with the role its group maps to; then, without
// a browser, responses the IdP signs but that must not sign anyone in are refused: tampered,
// unsigned, expired, meant for another service or for none, replayed, and one posted into a
// browser that did not start the sign-in; a value split by a CDATA section is read whole.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { missingNodeModules, node22 } from "../e2e/support/cli.mjs";
import { LoupeServer, missingPrerequisite, pluginDir } from "../e2e/support/server.mjs";
import { launchChromium, missingBrowser, newPage } from "./support/browser.mjs";

const here = import.meta.dirname;
let startSamlIdp = null;
try {
  ({ startSamlIdp } = await import("./support/saml-idp.mjs"));
} catch {}

function skipReason() {
  const reason = missingNodeModules() ?? missingPrerequisite() ?? missingBrowser() ??
    (startSamlIdp ? null : `samlify missing (run npm ci in ${here})`) ??
    (pluginDir && existsSync(join(pluginDir, "sso.so")) ? null : "the sso plugin is not built");
  if (reason) console.log(`# SAML tests skipped: ${reason}`);
  return reason ?? false;
}

const people = [
  { id: "ada", email: "ada@example.com", name: "Ada Lovelace", groups: ["design"] },
  { id: "eve", email: "eve@elsewhere.org", name: "Eve Outsider", groups: [] },
];

describe("single sign-on with a SAML identity provider", { skip: skipReason() }, () => {
  let idp, server, browser;

  before(async () => {
    idp = await startSamlIdp({ users: people });
    const dir = mkdtempSync(join(tmpdir(), "loupe-saml-"));
    const key = join(dir, "sp.key");
    const cert = join(dir, "sp.crt");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
      "-days", "2", "-subj", "/CN=loupe-sp"], { stdio: "ignore" });
    const metadata = join(dir, "idp.xml");
    writeFileSync(metadata, idp.metadataXml);
    server = await LoupeServer.start({
      node22,
      settings: [
        "plugins.enabled=auth,builds,reviews,web,sso",
        `auth.saml.corp.idp_metadata_file=${metadata}`,
        `auth.saml.corp.sp_key_file=${key}`,
        `auth.saml.corp.sp_cert_file=${cert}`,
        "auth.saml.corp.name=Corp SAML",
        "auth.saml.corp.email_domains=example.com",
        "auth.saml.corp.roles.design=default:member",
      ],
    });
    const spMetadata = await fetch(`${server.url}/_loupe/sso/saml/corp/metadata`);
    assert.equal(spMetadata.status, 200);
    idp.trustServiceProvider(await spMetadata.text());
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await idp?.close();
  });

  test("the SP metadata names the assertion consumer service and the signing certificate", async () => {
    const xml = await (await fetch(`${server.url}/_loupe/sso/saml/corp/metadata`)).text();
    assert.match(xml, new RegExp(`entityID="${server.url}/_loupe/sso/saml/corp/metadata"`));
    assert.match(xml, new RegExp(`Location="${server.url}/_loupe/sso/saml/corp/acs"`));
    assert.match(xml, /WantAssertionsSigned="true"/);
    assert.match(xml, /<ds:X509Certificate>[A-Za-z0-9+/=]{200,}<\/ds:X509Certificate>/);
    assert.equal((await fetch(`${server.url}/_loupe/sso/saml/nope/metadata`)).status, 404);
  });

  test("Chromium signs in through the IdP: a new user, with the role of their group", async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/_loupe/login?next=${encodeURIComponent("/default")}`);
    await page.getByRole("link", { name: "Sign in with Corp SAML" }).waitFor();
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "saml-sign-in.png") });
    await page.getByRole("link", { name: "Sign in with Corp SAML" }).click();
    await page.waitForURL((url) => url.origin === idp.url);
    assert.equal(idp.requests.at(-1).issuer, `${server.url}/_loupe/sso/saml/corp/metadata`);
    await page.getByRole("button", { name: "Sign in as Ada Lovelace" }).click();
    await page.waitForURL((url) => url.origin === server.url && url.pathname === "/default");
    const session = await page.evaluate(() => fetch("/_loupe/session").then((r) => r.json()));
    assert.equal(session.user?.name, "Ada Lovelace");
    assert.ok(session.accounts.includes("default"), JSON.stringify(session.accounts));
    if (server.canQuery) {
      assert.deepEqual(server.query("SELECT email FROM users WHERE name = 'Ada Lovelace'"), [["ada@example.com"]]);
      assert.deepEqual(server.query("SELECT provider, subject FROM sso_identities"), [["saml:corp", "ada@example.com"]]);
    }
    await page.context().close();
  });

  /** Starts a sign-in without a browser: the state cookie and the AuthnRequest's ID. */
  async function startWithoutBrowser() {
    const started = await fetch(`${server.url}/_loupe/sso/saml/corp/start`, { redirect: "manual" });
    assert.equal(started.status, 302);
    const cookie = started.headers.get("set-cookie").split(";")[0];
    const location = new URL(started.headers.get("location"));
    assert.equal(location.origin, idp.url);
    const relayState = location.searchParams.get("RelayState");
    await fetch(location, { redirect: "manual" });  // the IdP reads and records the request
    const request = idp.requests.at(-1);
    assert.equal(request.relayState, relayState);
    return { cookie, relayState, requestId: request.id };
  }

  /** Posts `samlResponse` to the ACS and follows to the end with `cookie`; returns where it ends. */
  async function post(samlResponse, relayState, cookie) {
    const answered = await fetch(`${server.url}/_loupe/sso/saml/corp/acs`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }),
    });
    const location = new URL(answered.headers.get("location"), server.url);
    if (answered.status !== 303) return { status: answered.status, location, signedIn: false };
    const finished = await fetch(location, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
    const end = new URL(finished.headers.get("location"), server.url);
    const signedIn = (finished.headers.get("set-cookie") ?? "").includes("loupe_session=");
    return { status: finished.status, location: end, signedIn };
  }

  test("a valid response signs in once; tampered, unsigned, expired, foreign or replayed responses do not", async () => {
    const ada = people[0];
    const refusals = [
      ["tampered", { tamper: true }, /refused|signature/i],
      ["unsigned", { unsigned: true }, /signed|refused/i],
      ["expired", { expired: true }, /expired|not valid/i],
      ["for another service", { audience: "https://other.example/metadata" }, /another service/i],
      ["without an audience", { noAudience: true }, /another service/i],
    ];
    for (const [what, options, message] of refusals) {
      const { cookie, relayState, requestId } = await startWithoutBrowser();
      const response = await idp.responseFor({ user: ada, inResponseTo: requestId, relayState, ...options });
      const result = await post(response, relayState, cookie);
      assert.equal(result.signedIn, false, `${what}: nobody signed in`);
      assert.equal(result.location.pathname, "/_loupe/login", what);
      assert.match(result.location.searchParams.get("error") ?? "", message, `${what}: ${result.location}`);
    }

    // The same valid response: once it signs in, then it is a replay.
    const { cookie, relayState, requestId } = await startWithoutBrowser();
    const response = await idp.responseFor({ user: ada, inResponseTo: requestId, relayState });
    const first = await post(response, relayState, cookie);
    assert.equal(first.signedIn, true, `signed in: ${first.location}`);
    const replay = await post(response, relayState, cookie);
    assert.equal(replay.signedIn, false, "a replayed response signs nobody in");
    assert.equal(replay.location.pathname, "/_loupe/login");

    // A response for another browser's sign-in (login CSRF): verified, but this browser did
    // not start it, so it signs nobody in.
    const other = await startWithoutBrowser();
    const posted = await post(await idp.responseFor({ user: ada, inResponseTo: other.requestId, relayState: other.relayState }), other.relayState, null);
    assert.equal(posted.signedIn, false);
    assert.match(posted.location.searchParams.get("error") ?? "", /another browser/);

    // A response to a request Loupe never sent answers nothing.
    const stray = await startWithoutBrowser();
    const wrong = await post(await idp.responseFor({ user: ada, inResponseTo: "_not-a-request-of-loupe", relayState: stray.relayState }), stray.relayState, stray.cookie);
    assert.equal(wrong.signedIn, false);
    assert.match(wrong.location.searchParams.get("error") ?? "", /another sign-in/);
  });

  test("a value split by a CDATA section after signing is read whole, not cut to another address", async () => {
    // Canonical XML flattens CDATA, so the signatures still verify: the value must be read
    // whole ("ada@example.com"), never as its last text node ("da@example.com", someone else).
    const { cookie, relayState, requestId } = await startWithoutBrowser();
    const response = await idp.responseFor({ user: people[0], inResponseTo: requestId, relayState, splitEmail: true });
    const result = await post(response, relayState, cookie);
    assert.equal(result.signedIn, true, `${result.location}`);
    if (server.canQuery) {
      assert.deepEqual(server.query("SELECT COUNT(*) FROM users WHERE email = 'da@example.com'"), [["0"]]);
      assert.deepEqual(server.query("SELECT COUNT(*) FROM users WHERE email = 'ada@example.com'"), [["1"]]);
    }
  });

  test("an address outside the allowed domains signs nobody in", async () => {
    const { cookie, relayState, requestId } = await startWithoutBrowser();
    const result = await post(await idp.responseFor({ user: people[1], inResponseTo: requestId, relayState }), relayState, cookie);
    assert.equal(result.signedIn, false);
    assert.match(result.location.searchParams.get("error") ?? "", /elsewhere\.org/);
  });
});
