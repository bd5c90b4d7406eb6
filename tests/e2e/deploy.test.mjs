// `argos deploy` with each CLI version (both have the command): the printed URL is on the sites
// listener, never the API's origin, and serves the deployed files, sandboxed (the bootstrap
// project is private, so the URL is a private link whose key every request carries), a second
// deploy of the same files uploads nothing, and `--prod` moves the production alias.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { logTail, uploadRequests } from "./support/checks.mjs";
import { clis, describeRun, GitRepo, node22, runCli } from "./support/cli.mjs";
import { LoupeServer } from "./support/server.mjs";
import { skipReason } from "./support/suite.mjs";

/**
 * A small Storybook-like build under <repo>/<folder>: `seed` is in every file (so the CLIs do not
 * share contents), `variant` only in index.html, iframe.html, main.js and stories.json.
 * Returns { dir, files: { path: content } }.
 */
function writeSite(repo, folder, seed, variant) {
  const files = {
    "index.html": `<!doctype html><link rel="stylesheet" href="main.css"><script src="main.js"></script><h1>${seed} ${variant}</h1>`,
    "iframe.html": `<!doctype html><div id="storybook-root">${seed} ${variant}</div>`,
    "main.js": `console.log(${JSON.stringify(`${seed} ${variant}`)});\n`.repeat(40),
    "main.css": `/* ${seed} */\n` + "body { margin: 0; font-family: sans-serif; }\n".repeat(20),
    "assets/chunk-1.js": `export const one = ${JSON.stringify(seed)};\n`,
    "assets/data/stories.json": JSON.stringify({ v: 5, entries: { [variant]: { id: seed } } }),
    "sb-common-assets/fonts.css": `@font-face { font-family: "${seed}"; }\n`,
  };
  const dir = join(repo.root, folder);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return { dir, files };
}

const DEPLOYED = /Deployed: (\S+)/;

describe("argos deploy", { skip: skipReason() }, () => {
  let server;
  before(async () => {
    server = await LoupeServer.start({
      node22,
      settings: ["plugins.enabled=auth,builds,deployments", "plugins.deployments.cache_ttl_ms=0"],
    });
  });
  after(async () => {
    await server?.stop();
  });

  for (const cli of clis) {
    describe(`CLI ${cli.name}`, () => {
      let repo;
      before(() => {
        repo = new GitRepo({ branch: `site-${cli.name.replace(/\W/g, "")}` });
      });
      const env = () => ({ ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken });

      test("deploys a folder and prints a URL that serves every file", async () => {
        const { dir, files } = writeSite(repo, "storybook-static", cli.name, "first");
        const requestsBefore = uploadRequests(server).length;
        const run = await runCli(cli, repo, ["deploy", dir], env());
        assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
        const url = DEPLOYED.exec(run.output)?.[1];
        assert.ok(url, `no "Deployed: <url>" line:\n${describeRun(cli, run)}`);
        assert.ok(url.startsWith(`${server.sitesUrl}/d/`), url);
        assert.notEqual(new URL(url).origin, new URL(server.url).origin, "sites have an origin of their own");
        assert.match(url, /\/d\/[a-z2-7]{32}\/$/, "a private project's URL is a private link");
        assert.equal(uploadRequests(server).length - requestsBefore, Object.keys(files).length,
          "one upload per file");

        // The link opens the site, sandboxed, and every file of it: no cookie is needed or set.
        const home = await fetch(url);
        assert.equal(home.status, 200);
        assert.equal(await home.text(), files["index.html"]);
        assert.equal(home.headers.get("content-type"), "text/html");
        assert.equal(home.headers.get("content-security-policy"), "sandbox allow-scripts allow-forms allow-popups");
        assert.equal(home.headers.get("set-cookie"), null);
        const site = url;
        // On the API's host the same path is only a redirect to the site's origin.
        const redirected = await fetch(`${server.url}${new URL(url).pathname}`, { redirect: "manual" });
        assert.equal(redirected.status, 308);
        assert.equal(redirected.headers.get("location"), url);
        const types = {
          "main.js": /javascript/,
          "main.css": /^text\/css/,
          "assets/data/stories.json": /^application\/json/,
          "iframe.html": /^text\/html/,
        };
        for (const [path, content] of Object.entries(files)) {
          const response = await fetch(site + path);
          assert.equal(response.status, 200, path);
          assert.equal(await response.text(), content, path);
          if (types[path]) assert.match(response.headers.get("content-type"), types[path], path);
        }

        // The deployment as the API reports it; by its own name the private site is refused.
        const rows = server.canQuery
          ? server.query("SELECT id, slug, status, branch, commit_sha FROM deployments ORDER BY id DESC LIMIT 1")
          : null;
        if (rows) {
          assert.equal(rows.length, 1);
          const [id, slug, status, branch, commit] = rows[0];
          assert.deepEqual([status, branch, commit], ["ready", repo.branch, repo.commit]);
          const api = await server.api("GET", `deployments/${id}`);
          assert.equal(api.status, 200);
          assert.equal(api.body.environment, "preview");
          assert.equal(api.body.url, url, "the same link while it is fresh");
          assert.equal((await fetch(`${server.sitesUrl}/d/${slug}/`)).status, 401, "no link: refused");
        }
      });

      test("deploying the same files again uploads nothing; the branch alias serves the newest", async () => {
        const { dir } = writeSite(repo, "storybook-static", cli.name, "first");
        const requestsBefore = uploadRequests(server).length;
        let run = await runCli(cli, repo, ["deploy", dir], env());
        assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
        assert.deepEqual(uploadRequests(server).slice(requestsBefore), [], "no upload request");

        writeSite(repo, "storybook-static", cli.name, "second");
        run = await runCli(cli, repo, ["deploy", dir], env());
        assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
        // Changed: index.html, iframe.html, main.js and stories.json; the rest is reused.
        assert.equal(uploadRequests(server).length - requestsBefore, 4);

        const page = await fetch(privateLink(server, `default--${repo.branch}--default`));
        assert.equal(page.status, 200);
        assert.match(await page.text(), new RegExp(`${cli.name} second`));
      });

      test("--prod deploys to production and moves the production alias", async () => {
        const { dir } = writeSite(repo, "prod-static", cli.name, "production");
        const run = await runCli(cli, repo, ["deploy", dir, "--prod"], env());
        assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
        const page = await fetch(privateLink(server, "default--default"));
        assert.equal(page.status, 200);
        assert.match(await page.text(), new RegExp(`${cli.name} production`));
      });
    });
  }
});

/**
 * A private link to a site from `loupe admin deployments link`, on the running server's sites
 * listener (the command, not knowing the ephemeral port, prints the configured one).
 */
function privateLink(server, site) {
  const { url } = JSON.parse(server.cli(["admin", "deployments", "link", "--site", site, "--json"]));
  return `${server.sitesUrl}${new URL(url).pathname}`;
}

// With plugins.deployments.domain, sites are hosts under it: `argos project domain get|set`
// reads and names the host of a project's production deployments.
describe("a project's production domain (plugins.deployments.domain)", { skip: skipReason() }, () => {
  const sites = "sites.example.test";
  let server;
  let repo;
  before(async () => {
    server = await LoupeServer.start({
      node22,
      settings: ["plugins.enabled=auth,builds,deployments", `plugins.deployments.domain=${sites}`, "plugins.deployments.cache_ttl_ms=0"],
    });
    repo = new GitRepo({ branch: "domain" });
    // Sites open to anyone: the host alone serves them.
    const opened = await server.api("PATCH", "/projects/default/default", { token: server.personalAccessToken, body: { deploymentAuth: "public" } });
    assert.equal(opened.status, 200, opened.text);
  });
  after(async () => {
    await server?.stop();
  });

  const cli = clis.find((c) => c.name === "latest");
  const domain = async (args) => {
    const run = await runCli(cli, repo, ["project", "domain", ...args, "--json"], {
      ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.personalAccessToken, ARGOS_PROJECT: "default/default" });
    return { ...run, json: run.code === 0 ? JSON.parse(run.stdout) : null };
  };
  /** GET / on the API's port as the browser asks for `host`. */
  const page = (host) => new Promise((done, fail) => {
    const request = httpRequest({ host: "127.0.0.1", port: new URL(server.url).port, path: "/", headers: { Host: host } }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => done({ status: response.statusCode, body }));
    });
    request.on("error", fail);
    request.end();
  });
  const deployProd = async (variant) => {
    const { dir, files } = writeSite(repo, `prod-${variant}`, "domain", variant);
    const run = await runCli(cli, repo, ["deploy", dir, "--prod"], { ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken });
    assert.equal(run.code, 0, describeRun(cli, run));
    return files["index.html"];
  };

  test("get answers the production alias's host, set names the project's own, which follows production", async () => {
    const initial = await domain(["get"]);
    assert.equal(initial.code, 0, describeRun(cli, initial));
    assert.equal(initial.json.domain, `default--default.${sites}`);
    const first = await deployProd("first");
    assert.equal((await page(`default--default.${sites}`)).body, first);

    // `argos project get` and `project deployments` read the same project and its deployments.
    const projectCli = (args, token) => runCli(cli, repo, ["project", ...args, "--json"], {
      ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: token, ARGOS_PROJECT: "default/default" });
    const got = await projectCli(["get"], server.personalAccessToken);
    assert.equal(got.code, 0, describeRun(cli, got));
    assert.equal(JSON.parse(got.stdout).deploymentAuth, "public");
    const listed = await projectCli(["deployments", "--environment", "production"], server.projectToken);
    assert.equal(listed.code, 0, describeRun(cli, listed));
    const deployments = JSON.parse(listed.stdout);
    const rows = Array.isArray(deployments) ? deployments : deployments.results;
    assert.ok(rows.length >= 1 && rows.every((d) => d.environment === "production"), listed.stdout);

    const set = await domain(["set", `acme-web.${sites}`]);
    assert.equal(set.code, 0, describeRun(cli, set));
    assert.equal(set.json.domain, `acme-web.${sites}`);
    assert.equal((await domain(["get"])).json.domain, `acme-web.${sites}`);
    assert.deepEqual(await page(`acme-web.${sites}`), { status: 200, body: first }, "served at once");
    const second = await deployProd("second");
    assert.equal((await page(`acme-web.${sites}`)).body, second, "the name follows the newest production deployment");
    assert.equal((await page(`default--default.${sites}`)).body, second, "beside the production alias");

    // A new name frees the old one; the alias itself means no name of the project's own.
    assert.equal((await domain(["set", `acme-docs.${sites}`])).json.domain, `acme-docs.${sites}`);
    assert.equal((await page(`acme-docs.${sites}`)).body, second);
    assert.equal((await page(`acme-web.${sites}`)).status, 404);
    assert.equal((await domain(["set", `default--default.${sites}`])).json.domain, `default--default.${sites}`);
    assert.equal((await page(`acme-docs.${sites}`)).status, 404);
  });

  test("refusals: outside the domain, a bad name, another project's name, a project token, no admin", async () => {
    const put = (body, token = server.personalAccessToken, project = "default/default") =>
      server.api("PUT", `/projects/${project}/domain`, { token, body });
    assert.equal((await put({ domain: "acme-web.example.com" })).status, 400);
    assert.equal((await put({ domain: `nodash.${sites}` })).status, 400);
    assert.equal((await put({ domain: `a--b.${sites}` })).status, 400);
    assert.equal((await put({})).status, 400);
    server.admin("project", "create", "--account", "default", "--name", "other");
    assert.equal((await put({ domain: `other-site.${sites}` }, server.personalAccessToken, "default/other")).status, 200);
    const taken = await put({ domain: `other-site.${sites}` });
    assert.equal(taken.status, 409, taken.text);
    assert.match(taken.body.error, /already taken/);
    assert.equal((await put({ domain: `other--default.${sites}` })).status, 400, "an alias's form is never a name");
    assert.equal((await put({ domain: `mine-site.${sites}` }, server.projectToken)).status, 401, "a project token never administers");
    server.admin("user", "create", "--slug", "viewer-vi", "--name", "Vi");
    server.admin("member", "add", "--account", "default", "--user", "viewer-vi", "--role", "contributor");
    server.admin("project", "grant", "--project", "default/default", "--user", "viewer-vi", "--level", "viewer");
    const viewer = JSON.stringify(server.admin("token", "create", "--user", "viewer-vi", "--account", "default")).match(/arp_[A-Za-z0-9_]{36}/)[0];
    assert.equal((await put({ domain: `mine-site.${sites}` }, viewer)).status, 403, "a viewer does not administer");
    assert.equal((await server.api("GET", "/projects/default/default/domain", { token: viewer })).status, 200, "but reads it");
    assert.equal((await domain(["get"])).json.domain, `default--default.${sites}`, "nothing changed");
  });
});
