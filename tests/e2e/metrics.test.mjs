// GET /metrics scraped over and over while the latest official CLI uploads a build: every scrape
// parses with an independent parser of the Prometheus text format, counters never go down, and
// the upload shows in the request, upload, job and diff figures.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, test } from "node:test";
import { logTail } from "./support/checks.mjs";
import { clis, describeRun, node22, runCli } from "./support/cli.mjs";
import { LoupeServer } from "./support/server.mjs";
import { checkoutFor, createdBuildNumber, skipReason, waitForConclusion } from "./support/suite.mjs";

const require = createRequire(import.meta.url);
const parsePrometheusTextFormat = require("parse-prometheus-text-format");

const TOKEN = "e2e-metrics-token";
const SCREENSHOTS = 8;

/** name → {name, type, metrics: [{labels, value}]}. */
function families(text) {
  const parsed = parsePrometheusTextFormat(text);
  return Object.fromEntries(parsed.map((family) => [family.name, family]));
}

/** Sum of the values of `name`'s samples whose labels include `labels`. */
function total(parsed, name, labels = {}) {
  const family = parsed[name];
  if (!family) return 0;
  return family.metrics
    .filter((metric) => Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value))
    .reduce((sum, metric) => sum + Number(metric.value ?? metric.count), 0);
}

describe("GET /metrics during a CLI upload", { skip: skipReason() }, () => {
  let server;
  before(async () => {
    server = await LoupeServer.start({ node22, settings: [`metrics.token=${TOKEN}`] });
  });
  after(async () => {
    await server?.stop();
  });

  // A server may close an idle keep-alive connection just as the client reuses it (HTTP/1.1
  // lets it): a scrape whose connection was closed under it is sent again once (the closed
  // socket is not reused). Any answer the server does send is checked as it is.
  async function get(url, headers) {
    try {
      return await fetch(url, { headers });
    } catch (error) {
      if (error?.cause?.code !== "UND_ERR_SOCKET") throw error;
      return fetch(url, { headers });
    }
  }

  async function scrape() {
    const response = await get(`${server.url}/metrics`, { authorization: `Bearer ${TOKEN}` });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();
    try {
      return families(text);
    } catch (error) {
      assert.fail(`the exposition does not parse: ${error.message}\n${text}`);
    }
  }

  test("every scrape parses, counters only grow, and the upload is counted", async () => {
    assert.equal((await fetch(`${server.url}/metrics`)).status, 401);
    const cli = clis[1];
    const repo = await checkoutFor(cli, server);
    const { dir } = repo.screenshots("screenshots", "metrics", SCREENSHOTS);
    const env = { ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken };

    const first = await scrape();
    let previous = first;
    let scrapes = 0;
    let running = true;
    const upload = runCli(cli, repo, ["upload", dir], env).finally(() => (running = false));
    while (running) {
      const current = await scrape();
      scrapes += 1;
      for (const name of ["loupe_http_requests_total", "loupe_upload_bytes_total", "loupe_jobs_succeeded_total"]) {
        assert.ok(total(current, name) >= total(previous, name), `${name} went down`);
      }
      previous = current;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const run = await upload;
    assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
    const created = createdBuildNumber(run);
    await waitForConclusion(server, created.number);
    assert.ok(scrapes > 0, "scraped while the CLI ran");

    const last = await scrape();
    assert.equal(total(last, "loupe_http_requests_total", { method: "POST", route: "/builds", status: "201" }) -
      total(first, "loupe_http_requests_total", { method: "POST", route: "/builds", status: "201" }), 1);
    assert.ok(total(last, "loupe_upload_bytes_total") - total(first, "loupe_upload_bytes_total") > 0, "upload bytes");
    assert.ok(total(last, "loupe_http_requests_total", { method: "PUT", route: "/builds/{buildId}", status: "200" }) >= 1);
    assert.ok(total(last, "loupe_jobs_succeeded_total", { kind: "build.process" }) >= 1);
    // This parser folds the labelled series of a histogram into one (the doctest's parser
    // checks them one by one); here: the type and that the buckets parse.
    assert.equal(last.loupe_http_request_duration_seconds.type, "HISTOGRAM");
    assert.ok(Object.keys(last.loupe_http_request_duration_seconds.metrics[0].buckets ?? {}).includes("+Inf"));
    // Route templates only: never a path with a build number or a key in it.
    for (const family of Object.values(last)) {
      for (const metric of family.metrics) {
        const route = metric.labels?.route;
        if (route === undefined) continue;
        assert.ok(!route.split("/").some((segment) => /^[0-9]+$|^[0-9a-f]{64}$/.test(segment)),
          `a raw path as a route label: ${route}`);
      }
    }
  });
});
