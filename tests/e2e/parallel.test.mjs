// Shards of one parallel build, with a known total (complete
// after the last shard) and with an unknown total (complete only after `argos finalize`).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { logTail } from "./support/checks.mjs";
import { clis, describeRun, node22, runCli } from "./support/cli.mjs";
import { LoupeServer } from "./support/server.mjs";
import {
  assertBuildShape, checkoutFor, createdBuildNumber, getBuild, skipReason, storedBuildState, storedScreenshots,
} from "./support/suite.mjs";

const PER_SHARD = 3;

describe("argos upload --parallel", { skip: skipReason() }, () => {
  let server;
  before(async () => {
    server = await LoupeServer.start({ node22 });
  });
  after(async () => {
    await server?.stop();
  });

  /** POST /builds as a further shard of `nonce` would: 201 while the build is open, 409 once complete. */
  const probeShard = (repo, nonce) =>
    server.api("POST", "builds", {
      body: { commit: repo.commit, branch: repo.branch, parallel: true, parallelNonce: nonce, screenshotKeys: [] },
    });

  for (const cli of clis) {
    describe(`CLI ${cli.name}`, () => {
      let repo;
      const env = (extra = {}) => ({ ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken, ...extra });
      before(async () => {
        repo = await checkoutFor(cli, server);
      });

      async function uploadShard(nonce, index, total) {
        const { dir, names } = repo.screenshots(`shard-${nonce}-${index}`, `${nonce}-shard${index}`, PER_SHARD);
        const run = await runCli(cli, repo, [
          "upload", dir, "--parallel", `--parallel-total=${total}`, "--parallel-nonce", nonce, `--parallel-index=${index}`,
        ], env());
        assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
        const created = createdBuildNumber(run);
        assert.ok(created, describeRun(cli, run));
        return { number: created.number, names };
      }

      test("3a. three shards with --parallel-total 3 make one build, complete after the third", async () => {
        const nonce = `n3-${cli.name}-${randomBytes(4).toString("hex")}`;
        const names = [];
        let number = null;
        for (const index of [1, 2, 3]) {
          const shard = await uploadShard(nonce, index, 3);
          names.push(...shard.names);
          if (number === null) number = shard.number;
          assert.equal(shard.number, number, `shard ${index} joins build #${number}`);
          const build = await getBuild(server, number);
          assertBuildShape(build, { number, commit: repo.commit, branch: repo.branch });
          const state = storedBuildState(server, build.id);
          if (state) assert.equal(state.complete, index === 3, `bucket complete after shard ${index}: ${JSON.stringify(state)}`);
          const probe = await probeShard(repo, nonce);
          if (index < 3) {
            assert.equal(probe.status, 201, `after shard ${index} the build is still open: ${probe.status} ${probe.text}`);
            assert.equal(probe.body.build.number, number);
          } else {
            assert.equal(probe.status, 409, `after the last shard the build is complete: ${probe.status} ${probe.text}`);
            assert.equal(probe.body.error, "Build already finalized");
          }
        }
        const stored = storedScreenshots(server, (await getBuild(server, number)).id);
        if (stored) assert.deepEqual(stored.map((s) => s.name), [...names].sort(), "the union of the shards' screenshots");

        const again = await runCli(cli, repo, [
          "upload", repo.screenshots(`late-${nonce}`, `${nonce}-late`, 1).dir,
          "--parallel", "--parallel-total=3", "--parallel-nonce", nonce, "--parallel-index=3",
        ], env());
        assert.notEqual(again.code, 0, `a shard after completion is refused:\n${describeRun(cli, again)}`);
        assert.match(again.output, /Build already finalized/);

        const finalize = await server.api("POST", "builds/finalize", { body: { parallelNonce: nonce } });
        assert.equal(finalize.status, 200, finalize.text);
        assert.deepEqual(finalize.body.builds, [], "finalize never touches a build with a known total");
      });

      test("3b. shards with --parallel-total -1 complete only after argos finalize", async () => {
        const nonce = `nx-${cli.name}-${randomBytes(4).toString("hex")}`;
        const names = [];
        let number = null;
        for (const index of [1, 2]) {
          const shard = await uploadShard(nonce, index, -1);
          names.push(...shard.names);
          number ??= shard.number;
          assert.equal(shard.number, number, `shard ${index} joins build #${number}`);
        }
        const open = await getBuild(server, number);
        const stateBefore = storedBuildState(server, open.id);
        if (stateBefore) assert.equal(stateBefore.complete, false, `not complete before finalize: ${JSON.stringify(stateBefore)}`);
        const probe = await probeShard(repo, nonce);
        assert.equal(probe.status, 201, `before finalize the build is still open: ${probe.status} ${probe.text}`);
        assert.equal(probe.body.build.number, number);

        const run = await runCli(cli, repo, ["finalize", "--parallel-nonce", nonce], env());
        assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
        assert.match(run.output, new RegExp(`Builds finalized: \\S+/builds/${number}\\b`), describeRun(cli, run));

        const stateAfter = storedBuildState(server, open.id);
        if (stateAfter) assert.equal(stateAfter.complete, true, `complete after finalize: ${JSON.stringify(stateAfter)}`);
        const closed = await probeShard(repo, nonce);
        assert.equal(closed.status, 409, `after finalize the build is complete: ${closed.status} ${closed.text}`);
        assert.equal(closed.body.error, "Build already finalized");

        const stored = storedScreenshots(server, open.id);
        if (stored) assert.deepEqual(stored.map((s) => s.name), [...names].sort(), "the union of the shards' screenshots");

        const twice = await runCli(cli, repo, ["finalize", "--parallel-nonce", nonce], env());
        assert.equal(twice.code, 0, `finalizing again returns the build unchanged:\n${describeRun(cli, twice)}`);
        assert.match(twice.output, new RegExp(`Builds finalized: \\S+/builds/${number}\\b`));
        assert.equal((await getBuild(server, number)).id, open.id, "still the same build");
      });
    });
  }
});
