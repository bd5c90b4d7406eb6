// A SAML 2.0 identity provider for the tests, built on npm `samlify`: it publishes its metadata,
// takes the service provider's AuthnRequest on the HTTP-Redirect binding at /sso, shows a
// "Corp sign-in" page with one button per person, and posts a signed Response (HTTP-POST
// binding) back to the service provider's AssertionConsumerService. responseFor() makes the
// same Response without a browser, and its bad variants (tampered, unsigned, expired, another
// audience) for the refusal tests.
//
// Signatures (XML-DSig, by samlify through xml-crypto): the Assertion is signed first (its
// ds:Signature right after the Assertion's Issuer, Reference URI="#<Assertion ID>"), then the
// whole Response (its ds:Signature right after the Response's Issuer, Reference
// URI="#<Response ID>", so it covers the signed Assertion too). Both: RSA-SHA256
// (xmldsig-more#rsa-sha256), SHA-256 digests (xmlenc#sha256), transforms enveloped-signature
// then exclusive c14n (xml-exc-c14n#), SignedInfo canonicalized with exclusive c14n; KeyInfo
// carries the signing certificate, which is also the one in the metadata.
import { execFileSync } from "node:child_process";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import samlify from "samlify";

const { IdentityProvider, ServiceProvider, SamlLib, Constants } = samlify;

// samlify refuses to parse any message until a schema validator is set. This one lets every message
// through: we are the IdP, the messages that matter (our Responses) are verified by the code under
// test, not by this harness, and samlify still parses the SP's AuthnRequest with its XXE-safe DOM
// parser (malformed XML is refused). The npm validator, @authenio/samlify-node-xmllint, installs
// without a native build (node-xmllint is libxml2 compiled to JavaScript) but is unfit for a test
// process: each validation prints a blank line on stdout, where node:test children report to the
// runner, adds a process 'uncaughtException' listener, and adds a stdout 'drain' listener that
// calls process.exit(), so a test file could end early whenever its stdout drains.
samlify.setSchemaValidator({ validate: async () => "skipped" });

const NS = {
  emailAddress: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  basic: "urn:oasis:names:tc:SAML:2.0:attrname-format:basic",
  redirect: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect",
  password: "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport",
};

// samlify's default login response, with an AuthnStatement of our own (samlify would fill its
// {AuthnStatement} tag with escaped text, so the element is written out here) and the
// AttributeStatement samlify builds from `attributes` below ({AttributeStatement}).
const responseTemplate =
  '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}" InResponseTo="{InResponseTo}">' +
  "<saml:Issuer>{Issuer}</saml:Issuer>" +
  '<samlp:Status><samlp:StatusCode Value="{StatusCode}"/></samlp:Status>' +
  '<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{AssertionID}" Version="2.0" IssueInstant="{IssueInstant}">' +
  "<saml:Issuer>{Issuer}</saml:Issuer>" +
  '<saml:Subject><saml:NameID Format="{NameIDFormat}">{NameID}</saml:NameID>' +
  '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
  '<saml:SubjectConfirmationData NotOnOrAfter="{SubjectConfirmationDataNotOnOrAfter}" Recipient="{SubjectRecipient}" InResponseTo="{InResponseTo}"/>' +
  "</saml:SubjectConfirmation></saml:Subject>" +
  '<saml:Conditions NotBefore="{ConditionsNotBefore}" NotOnOrAfter="{ConditionsNotOnOrAfter}">' +
  "<saml:AudienceRestriction><saml:Audience>{Audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>" +
  '<saml:AuthnStatement AuthnInstant="{AuthnInstant}" SessionIndex="{SessionIndex}">' +
  `<saml:AuthnContext><saml:AuthnContextClassRef>${NS.password}</saml:AuthnContextClassRef></saml:AuthnContext>` +
  "</saml:AuthnStatement>" +
  "{AttributeStatement}" +
  "</saml:Assertion></samlp:Response>";

// Each becomes <saml:Attribute Name=".." NameFormat="basic"><saml:AttributeValue
// xsi:type="xs:string">{attrEmail}</saml:AttributeValue></saml:Attribute>; the groups value is
// repeated once per group by fill() below.
const attributes = [
  { name: "email", valueTag: "email", nameFormat: NS.basic, valueXsiType: "xs:string" },
  { name: "displayName", valueTag: "displayName", nameFormat: NS.basic, valueXsiType: "xs:string" },
  { name: "groups", valueTag: "groups", nameFormat: NS.basic, valueXsiType: "xs:string" },
];

/** SAML times: UTC, whole seconds (xs:dateTime without the milliseconds some SPs choke on). */
const samlTime = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const html = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const xmlText = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]);

/** An RSA key and a self-signed certificate for it (node:crypto has no X.509 writer: openssl). */
function signingKeyAndCertificate(commonName) {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: "pkcs1", format: "pem" });
  const dir = mkdtempSync(join(tmpdir(), "saml-idp-"));
  try {
    writeFileSync(join(dir, "key.pem"), keyPem, { mode: 0o600 });
    const certPem = execFileSync("openssl", [
      "req", "-new", "-x509", "-key", join(dir, "key.pem"), "-sha256", "-days", "2", "-subj", `/CN=${commonName}`,
    ], { stdio: ["ignore", "pipe", "pipe"] }).toString();
    return { keyPem, certPem };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs make() without samlify's warning that the IdP has no SingleLogoutService (none is wanted). */
function withoutSloWarning(make) {
  const warn = console.warn;
  console.warn = (...args) => { if (!String(args[0]).includes("SingleLogoutService")) warn(...args); };
  try {
    return make();
  } finally {
    console.warn = warn;
  }
}

/** Starts the IdP on 127.0.0.1 (random port). users: [{ id, email, name, groups: [] }]. */
export async function startSamlIdp({ users }) {
  let handler = (request, response) => response.writeHead(503).end();
  const http = createServer((request, response) => {
    Promise.resolve(handler(request, response)).catch((error) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end(`saml-idp: ${error?.stack ?? error}\n`);
    });
  });
  await new Promise((done) => http.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${http.address().port}`;
  const entityId = `${url}/metadata`;

  const { keyPem, certPem } = signingKeyAndCertificate(`Loupe test IdP ${http.address().port}`);
  const idp = withoutSloWarning(() => IdentityProvider({
    entityID: entityId,
    signingCert: certPem,
    privateKey: keyPem,
    wantAuthnRequestsSigned: false,
    nameIDFormat: [NS.emailAddress],
    singleSignOnService: [{ Binding: NS.redirect, Location: `${url}/sso` }],
    requestSignatureAlgorithm: Constants.algorithms.signature.RSA_SHA256,
    loginResponseTemplate: { context: responseTemplate, attributes },
  }));
  const metadataXml = idp.getMetadata();

  let sp = null;
  const requests = [];
  const userById = (id) => users.find((u) => u.id === id);

  /** The ACS URL of the trusted SP's HTTP-POST AssertionConsumerService. */
  const acsUrl = () => {
    const location = sp.entityMeta.getAssertionConsumerService("post");
    if (!location) throw new Error("saml-idp: the service provider's metadata has no HTTP-POST AssertionConsumerService");
    return location;
  };

  /**
   * The customTagReplacement for samlify: fills every {Tag} of the template (the AttributeStatement
   * already expanded into it by samlify) and returns { id, context }.
   */
  const fill = ({ user, inResponseTo, expired, audience, email = user.email }) => (template) => {
    const now = Date.now();
    const minutes = (n) => samlTime(now + n * 60_000);
    const id = `_${randomUUID()}`;
    const groups = user.groups ?? [];
    // One AttributeValue per group ({attrGroups0}, {attrGroups1}, …); none for no group.
    const context = template.replace(
      /(<saml:AttributeValue[^>]*>)\{attrGroups\}(<\/saml:AttributeValue>)/,
      (_, open, close) => groups.map((_, i) => `${open}{attrGroups${i}}${close}`).join(""),
    );
    const values = {
      ID: id,
      AssertionID: `_${randomUUID()}`,
      Issuer: entityId,
      IssueInstant: expired ? minutes(-10) : minutes(0),
      Destination: acsUrl(),
      InResponseTo: inResponseTo || undefined, // undefined drops the attribute (unsolicited Response)
      StatusCode: Constants.StatusCode.Success,
      NameIDFormat: NS.emailAddress,
      NameID: email,
      SubjectRecipient: acsUrl(),
      SubjectConfirmationDataNotOnOrAfter: expired ? minutes(-5) : minutes(5),
      ConditionsNotBefore: expired ? minutes(-10) : minutes(-1),
      ConditionsNotOnOrAfter: expired ? minutes(-5) : minutes(5),
      Audience: audience ?? sp.entityMeta.getEntityID(),
      AuthnInstant: expired ? minutes(-10) : minutes(0),
      SessionIndex: `_${randomUUID()}`,
      attrEmail: email,
      attrDisplayName: user.name ?? "",
      ...Object.fromEntries(groups.map((g, i) => [`attrGroups${i}`, g])),
    };
    return { id, context: SamlLib.replaceTagsByValue(context, values) };
  };

  /**
   * The trusted SP as samlify's signing code sees it. samlify signs the Assertion only when the
   * SP's metadata says WantAssertionsSigned="true", and the Response only when the SP setting
   * wantMessageSigned is on (or the Assertion is not signed); this harness always signs both,
   * whatever the SP's metadata says.
   */
  const signBoth = () => Object.assign(Object.create(sp), {
    entitySetting: { ...sp.entitySetting, wantMessageSigned: true },
    entityMeta: Object.assign(Object.create(sp.entityMeta), { isWantAssertionsSigned: () => true }),
  });

  async function responseFor({ user, inResponseTo, relayState, tamper = false, unsigned = false, expired = false, audience, noAudience = false, splitEmail = false } = {}) {
    if (!sp) throw new Error("saml-idp: trustServiceProvider() first");
    const person = typeof user === "string" ? userById(user) : user;
    if (!person) throw new Error(`saml-idp: no such user ${JSON.stringify(user)}`);
    void relayState; // carried beside the Response (form field), not inside it
    const filled = fill({ user: person, inResponseTo, expired, audience });
    // noAudience: the Assertion without its AudienceRestriction (still signed by the IdP).
    const replace = noAudience
      ? (template) => filled(template.replace(/<saml:AudienceRestriction>.*?<\/saml:AudienceRestriction>/, ""))
      : filled;
    if (unsigned) {
      // The very XML createLoginResponse would sign, with no ds:Signature anywhere.
      return Buffer.from(replace(idp.entitySetting.loginResponseTemplate.context).context).toString("base64");
    }
    const { context } = await idp.createLoginResponse(signBoth(), { extract: { request: { id: inResponseTo } } }, "post", person, replace);
    if (splitEmail) {
      // After signing: the email attribute's value split by a CDATA section. Canonical XML
      // flattens CDATA, so both signatures still verify; a reader that takes only the first
      // text node would read "da@example.com" for "ada@example.com".
      const xml = Buffer.from(context, "base64").toString();
      const value = xmlText(person.email);
      const changed = xml.replace(`>${value}</saml:AttributeValue>`, `><![CDATA[${value.slice(0, 1)}]]>${value.slice(1)}</saml:AttributeValue>`);
      if (changed === xml) throw new Error("saml-idp: splitEmail found no email attribute");
      return Buffer.from(changed).toString("base64");
    }
    if (!tamper) return context;
    // After signing: another address in the Assertion (NameID and the email attribute), so
    // neither the Assertion's nor the Response's signature verifies any more.
    const forged = typeof tamper === "string" ? tamper : "mallory@evil.example";
    const xml = Buffer.from(context, "base64").toString();
    const changed = xml.split(`>${xmlText(person.email)}<`).join(`>${xmlText(forged)}<`);
    if (changed === xml) throw new Error("saml-idp: tamper found no email to change");
    return Buffer.from(changed).toString("base64");
  }

  /** The octet string a signed Redirect-binding request signs: the parameters as they came, in order. */
  function octetString(rawQuery) {
    const pairs = Object.fromEntries(rawQuery.split("&").map((p) => [p.split("=")[0], p]));
    return ["SAMLRequest", "RelayState", "SigAlg"].filter((k) => k in pairs).map((k) => pairs[k]).join("&");
  }

  function verifyRedirectSignature(query, rawQuery) {
    try {
      return SamlLib.verifyMessageSignature(sp.entityMeta, octetString(rawQuery), Buffer.from(query.Signature, "base64"), query.SigAlg);
    } catch {
      return false; // no signing certificate in the SP metadata, or an unknown SigAlg
    }
  }

  const page = (title, body) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${html(title)}</title></head><body>${body}</body></html>`;
  const send = (response, status, type, body) => response.writeHead(status, { "content-type": type, "cache-control": "no-store" }).end(body);
  const readForm = (request) => new Promise((resolve, reject) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c)).on("end", () => resolve(new URLSearchParams(Buffer.concat(chunks).toString()))).on("error", reject);
  });

  handler = async (request, response) => {
    const where = new URL(request.url, url);
    if (request.method === "GET" && where.pathname === "/metadata") {
      return send(response, 200, "application/samlmetadata+xml", metadataXml);
    }
    if (request.method === "GET" && where.pathname === "/sso") {
      if (!sp) return send(response, 503, "text/plain", "saml-idp: no service provider trusted yet\n");
      const query = Object.fromEntries(where.searchParams);
      let parsed;
      try {
        parsed = await idp.parseLoginRequest(sp, "redirect", { query, octetString: octetString(where.search.slice(1)) });
      } catch (error) {
        return send(response, 400, "text/plain", `saml-idp: bad AuthnRequest: ${error?.message ?? error}\n`);
      }
      const { extract } = parsed;
      const entry = {
        id: extract.request?.id,
        issuer: extract.issuer,
        relayState: query.RelayState,
        destination: extract.request?.destination,
        assertionConsumerServiceUrl: extract.request?.assertionConsumerServiceUrl,
        signed: Boolean(query.Signature),
        // The Redirect binding's detached signature (SigAlg + Signature over the octet string),
        // checked against the signing certificate of the SP's metadata; null when unsigned.
        signatureVerified: query.Signature ? verifyRedirectSignature(query, where.search.slice(1)) : null,
        sigAlg: query.SigAlg,
        xml: parsed.samlContent,
      };
      requests.push(entry);
      // As a real IdP would: only the trusted SP, signed if its metadata says so, and answered
      // only at the ACS its metadata names.
      if (entry.signed && !entry.signatureVerified) {
        return send(response, 400, "text/plain", "saml-idp: the AuthnRequest's signature does not verify\n");
      }
      if (!entry.signed && sp.entityMeta.isAuthnRequestSigned()) {
        return send(response, 400, "text/plain", 'saml-idp: unsigned AuthnRequest, but the SP metadata says AuthnRequestsSigned="true"\n');
      }
      if (entry.issuer !== sp.entityMeta.getEntityID()) {
        return send(response, 400, "text/plain", `saml-idp: AuthnRequest from unknown issuer ${entry.issuer}\n`);
      }
      if (entry.assertionConsumerServiceUrl && entry.assertionConsumerServiceUrl !== acsUrl()) {
        return send(response, 400, "text/plain", `saml-idp: AssertionConsumerServiceURL ${entry.assertionConsumerServiceUrl} is not the metadata's ${acsUrl()}\n`);
      }
      const buttons = users.map((u) => `<p><button name="user" value="${html(u.id)}">Sign in as ${html(u.name)}</button></p>`).join("");
      return send(response, 200, "text/html; charset=utf-8", page("Corp sign-in",
        `<h1>Corp sign-in</h1><form method="post" action="/login">` +
        `<input type="hidden" name="requestId" value="${html(entry.id)}">` +
        `<input type="hidden" name="RelayState" value="${html(entry.relayState ?? "")}">${buttons}</form>`));
    }
    if (request.method === "POST" && where.pathname === "/login") {
      const form = await readForm(request);
      const requestId = form.get("requestId");
      const relayState = form.get("RelayState") ?? "";
      const user = userById(form.get("user"));
      if (!requests.some((r) => r.id === requestId)) return send(response, 400, "text/plain", "saml-idp: unknown request id\n");
      if (!user) return send(response, 400, "text/plain", "saml-idp: unknown user\n");
      const samlResponse = await responseFor({ user, inResponseTo: requestId, relayState });
      return send(response, 200, "text/html; charset=utf-8", page("Corp sign-in",
        `<form method="post" action="${html(acsUrl())}">` +
        `<input type="hidden" name="SAMLResponse" value="${html(samlResponse)}">` +
        (relayState ? `<input type="hidden" name="RelayState" value="${html(relayState)}">` : "") +
        `<noscript><button>Continue</button></noscript></form>` +
        `<script>document.forms[0].submit()</script>`));
    }
    return send(response, 404, "text/plain", "saml-idp: not found\n");
  };

  return {
    url,
    entityId,
    metadataXml,
    /** Registers the SP (Loupe) from its metadata XML. */
    trustServiceProvider(spMetadataXml) {
      sp = ServiceProvider({ metadata: spMetadataXml });
      return sp;
    },
    requests,
    responseFor,
    close: () => new Promise((done) => { http.closeAllConnections?.(); http.close(() => done()); }),
  };
}
