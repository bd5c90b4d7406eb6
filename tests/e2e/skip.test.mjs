// `argos skip` creates a skipped build; `argos build get`
// shows a build.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { logTail } from "./support/checks.mjs";
import { clis, describeRun, node22, runCli } from "./support/cli.mjs";
import { LoupeServer } from "./support/server.mjs";
import { assertBuildShape, checkoutFor, createdBuildNumber, getBuild, skipReason, storedBuildState } from "./support/suite.mjs";

describe("argos skip and argos build get", { skip: skipReason() }, () => {
  let server;
  before(async () => {
    server = await LoupeServer.start({ node22 });
  });
  after(async () => {
    await server?.stop();
  });

  for (const cli of clis) {
    describe(`CLI ${cli.name}`, () => {
      let repo;
      let skipped = null;
      const env = () => ({ ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken });
      before(async () => {
        repo = await checkoutFor(cli, server);
      });

      test("4a. argos skip creates a skipped build", async () => {
        const run = await runCli(cli, repo, ["skip"], env());
        assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
        const created = createdBuildNumber(run);
        assert.ok(created, describeRun(cli, run));
        const build = await getBuild(server, created.number);
        assertBuildShape(build, { number: created.number, commit: repo.commit, branch: repo.branch });
        assert.equal(build.url, created.url);
        assert.ok(build.notification, `a skipped build has a notification: ${JSON.stringify(build)}`);
        assert.equal(build.notification.description, "Build skipped");
        assert.equal(build.notification.github?.state, "success");
        assert.equal(build.notification.gitlab?.state, "success");
        const state = storedBuildState(server, build.id);
        if (state) {
          assert.equal(state.type, "skipped");
          assert.equal(state.complete, true, "a skipped build is finalized at creation");
          assert.equal(state.screenshotCount, 0);
        }
        skipped = build;
      });

      test("4b. argos build get shows a build", async () => {
        assert.ok(skipped, "the skipped build was created");
        const json = await runCli(cli, repo, ["build", "get", String(skipped.number), "--json"], env());
        assert.equal(json.code, 0, `${describeRun(cli, json)}\n${logTail(server)}`);
        assert.deepEqual(JSON.parse(json.stdout), await getBuild(server, skipped.number),
          "the CLI prints the Build the API returns");

        // By number: the CLI takes build URLs only on app.argos-ci.com.
        const text = await runCli(cli, repo, ["build", "get", String(skipped.number)], env());
        assert.equal(text.code, 0, describeRun(cli, text));
        assert.match(text.stdout, new RegExp(`^Build #${skipped.number}$`, "m"));
        assert.match(text.stdout, new RegExp(`^Branch: ${repo.branch}$`, "m"));
        assert.match(text.stdout, new RegExp(`^Commit: ${repo.commit}$`, "m"));
        assert.match(text.stdout, new RegExp(`^URL: ${skipped.url}$`, "m"));

        // A project token asking for a build that does not exist gets 401, not 404: the token's
        // project is compared before the build is looked up.
        const missing = await runCli(cli, repo, ["build", "get", "999999"], env());
        assert.notEqual(missing.code, 0, describeRun(cli, missing));
        assert.match(missing.output, /Unauthorized/, describeRun(cli, missing));
      });
    });
  }
});
