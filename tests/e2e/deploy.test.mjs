// `argos deploy` with each CLI version (both have the command): the printed URL is on the sites
// listener, never the API's origin, and serves the deployed files, sandboxed (the bootstrap
// project is private, so the URL is a private link whose key every request carries), a second
// deploy of the same files uploads nothing, and `--prod` moves the production alias.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
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
