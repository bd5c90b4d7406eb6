// End to end with each official CLI in a git repository the test creates: a build on
// `main` (reference, no baseline), then a branch build with one changed, one added, one removed
// and two identical screenshots, then an identical re-run.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { logTail } from "./support/checks.mjs";
import { clis, describeRun, GitRepo, node22, runCli } from "./support/cli.mjs";
import { patternPng } from "./support/png.mjs";
import { LoupeServer } from "./support/server.mjs";
import { createdBuildNumber, getBuild, skipReason, tokenProject, waitForConclusion, writeScreens } from "./support/suite.mjs";

/** The pattern image of `seed` with a 12×10 block painted over: a real, visible change. */
function changedPng(seed) {
  return patternPng(seed, { paint: { x: 10, y: 8, width: 12, height: 10 } });
}



async function listDiffs(server, number, query = "") {
  const { owner, name } = await tokenProject(server);
  const path = `projects/${owner}/${name}/builds/${number}/diffs${query}`;
  const response = await server.api("GET", path, { token: server.personalAccessToken });
  assert.equal(response.status, 200, `GET /v2/${path}: ${response.status} ${response.text}`);
  return response.body;
}

describe("processing: baseline, diffs, conclusion", { skip: skipReason() }, () => {
  let server;
  before(async () => {
    server = await LoupeServer.start({ node22 });
  });
  after(async () => {
    await server?.stop();
  });

  for (const cli of clis) {
    describe(`CLI ${cli.name}`, () => {
      const buildName = `processing-${cli.name}`;
      const env = () => ({ ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken });
      const mainFiles = {
        "same-1.png": patternPng(`${cli.name}/same-1`),
        "same-2.png": patternPng(`${cli.name}/same-2`),
        "changed.png": patternPng(`${cli.name}/changed`),
        "removed.png": patternPng(`${cli.name}/removed`),
      };
      const branchFiles = {
        "same-1.png": mainFiles["same-1.png"],
        "same-2.png": mainFiles["same-2.png"],
        "changed.png": changedPng(`${cli.name}/changed`),
        "added.png": patternPng(`${cli.name}/added`),
      };
      let repo;
      let reference;
      let check;

      const upload = async (files) => {
        const dir = writeScreens(repo, "screens", files);
        const run = await runCli(cli, repo, ["upload", dir, "--build-name", buildName], env());
        assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
        const created = createdBuildNumber(run);
        assert.ok(created, describeRun(cli, run));
        return waitForConclusion(server, created.number);
      };

      before(() => {
        repo = new GitRepo();
      });

      test("a build on main is a reference build without a baseline", async () => {
        repo.git("checkout", "-q", "main");
        reference = await upload(mainFiles);
        assert.equal(reference.head.sha, repo.baseCommit);
        assert.equal(reference.base, null, "no baseline for the first build");
        assert.equal(reference.baselineBuild?.reason, "no-eligible-build");
        assert.equal(reference.status, "changes-detected", JSON.stringify(reference));
        assert.equal(reference.stats.added, 4);
        assert.equal(reference.stats.total, 4);
        assert.equal(reference.notification.github.state, "success", "reference builds are approved");
        assert.equal(reference.notification.description, "4 added, automatically approved");
      });

      test("a branch build compares with main: changed, added, removed, unchanged", async () => {
        assert.ok(reference, "the reference build concluded");
        repo.git("checkout", "-q", repo.branch);
        check = await upload(branchFiles);
        assert.equal(check.conclusion, "changes-detected", JSON.stringify(check));
        assert.deepEqual(check.stats, {
          added: 1, removed: 1, unchanged: 2, changed: 1, ignored: 0, failure: 0, retryFailure: 0, total: 5,
        });
        assert.deepEqual(check.base, { sha: repo.baseCommit, branch: "main" });
        assert.equal(check.baselineBuild.number, reference.number);
        assert.equal(check.baselineBuild.reason, "merge-base");
        assert.equal(check.notification.description, "1 changed, 1 added, 1 removed \u2014 waiting for your decision");

        const review = await listDiffs(server, check.number, "?needsReview=true");
        assert.equal(review.pageInfo.total, 3);
        assert.deepEqual(review.results.map((d) => [d.status, d.name]),
          [["changed", "changed.png"], ["added", "added.png"], ["removed", "removed.png"]]);
        const [changed, added, removed] = review.results;
        assert.ok(changed.score > 0 && changed.score < 1, `score ${changed.score}`);
        assert.match(changed.url, /^http:\/\/127\.0\.0\.1:\d+\/blobs\//, "the mask is served");
        const mask = await fetch(changed.url);
        assert.equal(mask.status, 200);
        assert.equal(mask.headers.get("content-type"), "image/png");
        assert.equal(changed.base.width, 48);
        assert.equal(changed.head.height, 40);
        assert.equal(added.base, null);
        assert.equal(removed.head, null);
        assert.equal(changed.test.name, "changed.png");
        assert.equal(changed.test.buildName, buildName);
        assert.deepEqual(Object.keys(changed.test.metrics).sort(),
          ["changes", "consistency", "flakiness", "stability", "total", "uniqueChanges"]);
        // Argos's public ids: <PROJECT NAME>-<sqid of the test>, then -v1<fingerprint hash>.
        const { name } = await tokenProject(server);
        assert.ok(changed.test.id.startsWith(`${name.toUpperCase()}-`), changed.test.id);
        assert.match(changed.test.id, /-[0-9A-Z]{4,}$/);
        assert.ok(changed.change.id.startsWith(`${changed.test.id}-v1`), changed.change.id);
        assert.match(changed.change.id, /-v1[0-9a-f]{16}$/);

        const all = await listDiffs(server, check.number);
        assert.equal(all.pageInfo.total, 5);
        assert.deepEqual(all.results.map((d) => d.status), ["changed", "added", "removed", "unchanged", "unchanged"]);
      });

      test("an identical re-run concludes no-changes", async () => {
        assert.ok(check, "the branch build concluded");
        repo.git("commit", "-q", "--allow-empty", "-m", "re-run");
        repo.git("push", "-q", "origin", repo.branch);
        const rerun = await upload(mainFiles);
        assert.equal(rerun.conclusion, "no-changes", JSON.stringify(rerun));
        assert.equal(rerun.stats.unchanged, 4);
        assert.equal(rerun.stats.total, 4);
        assert.equal(rerun.baselineBuild.number, reference.number);
        assert.equal(rerun.notification.description, "Everything's good!");
      });
    });
  }
});
