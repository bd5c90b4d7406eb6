// Refusals the CLI prints clearly — a wrong token, a commit
// that is not 40 hex characters — and the server's own answer when a client sends such a commit.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { apiRequests, logTail } from "./support/checks.mjs";
import { clis, describeRun, node22, runCli } from "./support/cli.mjs";
import { LoupeServer } from "./support/server.mjs";
import { checkoutFor, skipReason } from "./support/suite.mjs";

const UNKNOWN_TOKEN = `argos_${"z".repeat(34)}`; // 40 characters, the shape of a project token

describe("refusals", { skip: skipReason() }, () => {
  let server;
  before(async () => {
    // With the review page (web): its pages must never answer an API client.
    server = await LoupeServer.start({ node22, settings: ["plugins.enabled=auth,builds,reviews,deployments,web"] });
  });
  after(async () => {
    await server?.stop();
  });

  for (const cli of clis) {
    describe(`CLI ${cli.name}`, () => {
      let repo, dir;
      before(async () => {
        repo = await checkoutFor(cli, server);
        ({ dir } = repo.screenshots("screenshots", `refusal-${cli.name}`, 2));
      });
      const buildRequests = () => apiRequests(server).filter((r) => r.path === "/v2/builds");

      test("5a. an unknown token: the CLI prints the server's message and fails", async () => {
        const expected = `Project not found in Argos. If the issue persists, verify your token. (token: "${UNKNOWN_TOKEN}").`;
        for (const args of [["upload", dir], ["skip"]]) {
          const before = buildRequests().length;
          const run = await runCli(cli, repo, args, { ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: UNKNOWN_TOKEN });
          assert.notEqual(run.code, 0, describeRun(cli, run));
          assert.ok(run.output.includes(expected), `the server's 401 message is printed:\n${describeRun(cli, run)}\n${logTail(server)}`);
          const created = buildRequests().slice(before).filter((r) => r.status < 300);
          assert.deepEqual(created, [], "no build is created");
        }
      });

      test("5b. a commit that is not 40 hex characters is refused", async () => {
        for (const commit of ["xyz", repo.commit.toUpperCase(), repo.commit.slice(0, 7)]) {
          const before = buildRequests().length;
          const run = await runCli(cli, repo, ["upload", dir], {
            ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken, ARGOS_COMMIT: commit,
          });
          assert.notEqual(run.code, 0, describeRun(cli, run));
          assert.match(run.output, commit.length === 7 ? /Short SHA1 is not allowed/ : /Invalid commit/, describeRun(cli, run));
          assert.deepEqual(buildRequests().slice(before).filter((r) => r.status < 300), [], "no build is created");
        }
      });
    });
  }

  test("an unknown `loupe admin` command says so and exits 2 (the plugins load once)", () => {
    for (const args of [["admin", "nonsense", "x"], ["admin", "git"]]) {
      let failure;
      try {
        server.cli(args);
      } catch (error) {
        failure = error;
      }
      assert.ok(failure, `loupe ${args.join(" ")} succeeded`);
      assert.equal(failure.status, 2);
      const stderr = failure.stderr.toString();
      assert.match(stderr, /^loupe admin: (unknown command "nonsense x"|missing action after "git")/, stderr);
      assert.doesNotMatch(stderr, /described twice/);
    }
  });

  test("5d. a route the server does not have: the CLI prints the JSON 404, not the review page", async () => {
    // `argos whoami` (the latest CLI) reads GET {base}/me. Under a base URL naming no route
    // every path is unknown, and a path the shape of a page ("/{account}/{project}") answered
    // the page's HTML: the CLI then failed with "Unexpected token '<'".
    const cli = clis.find((c) => c.name === "latest");
    const repo = await checkoutFor(cli, server);
    const run = await runCli(cli, repo, ["whoami"], {
      ARGOS_API_BASE_URL: `${server.url}/v2/nowhere/`,
      ARGOS_TOKEN: server.personalAccessToken,
    });
    assert.notEqual(run.code, 0, describeRun(cli, run));
    assert.doesNotMatch(run.output, /Unexpected token/, describeRun(cli, run));
    assert.match(run.output, /Not Found/, describeRun(cli, run));
    const answered = apiRequests(server).filter((r) => r.path === "/v2/nowhere/me");
    assert.deepEqual(answered.map((r) => r.status), [404], `${describeRun(cli, run)}\n${logTail(server)}`);
  });

  test("5c. the server refuses such a commit itself (a client that does not check)", async () => {
    for (const commit of ["xyz", "A".repeat(40), "a".repeat(39)]) {
      const response = await server.api("POST", "builds", { body: { commit, branch: "main", screenshotKeys: [] } });
      assert.equal(response.status, 400, `${commit}: ${response.status} ${response.text}\n${logTail(server)}`);
      assert.equal(response.body?.error, "Invalid request");
      assert.deepEqual(response.body?.details, [{ message: "commit is Invalid string: must match pattern /^[0-9a-f]{40}$/" }]);
    }
  });

  test("5d. the server refuses an unknown token itself", async () => {
    const response = await server.api("POST", "builds", {
      token: UNKNOWN_TOKEN, body: { commit: "a".repeat(40), branch: "main", screenshotKeys: [] },
    });
    assert.equal(response.status, 401, response.text);
    assert.equal(response.body?.error,
      `Project not found in Argos. If the issue persists, verify your token. (token: "${UNKNOWN_TOKEN}").`);
  });
});
