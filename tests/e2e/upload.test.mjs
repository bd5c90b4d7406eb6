// `argos upload` of a folder of PNGs, then the same
// upload again, with each CLI version.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { blobPath, logTail, sha256File, storedBlobs, temporaryBlobs, uploadedKeys, uploadRequests } from "./support/checks.mjs";
import { clis, describeRun, node22, runCli } from "./support/cli.mjs";
import { LoupeServer } from "./support/server.mjs";
import { assertBuildShape, checkoutFor, createdBuildNumber, getBuild, skipReason, storedScreenshots } from "./support/suite.mjs";

const SCREENSHOTS = 6;

describe("argos upload", { skip: skipReason() }, () => {
  let server;
  before(async () => {
    server = await LoupeServer.start({ node22 });
  });
  after(async () => {
    await server?.stop();
  });

  for (const cli of clis) {
    describe(`CLI ${cli.name}`, () => {
      let repo, dir, names;
      before(async () => {
        repo = await checkoutFor(cli, server);
        ({ dir, names } = repo.screenshots("screenshots", `upload-${cli.name}`, SCREENSHOTS, { nested: 2 }));
      });
      const env = () => ({ ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken });
      let first = null;

      test("1. uploads a folder of PNGs: the build exists, every blob is stored under its SHA-256", async () => {
        const keysBefore = uploadedKeys(server).length;
        const requestsBefore = uploadRequests(server).length;
        const run = await runCli(cli, repo, ["upload", dir], env());
        assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
        const created = createdBuildNumber(run);
        assert.ok(created, `no "Build created: <url>" line:\n${describeRun(cli, run)}`);

        const build = await getBuild(server, created.number);
        assertBuildShape(build, { number: created.number, commit: repo.commit, branch: repo.branch });
        assert.equal(build.url, created.url, "the CLI prints the build's url");
        assert.ok(["pending", "progress", "no-changes", "changes-detected"].includes(build.status),
          `status ${build.status}`);

        const keys = uploadedKeys(server).slice(keysBefore);
        assert.equal(new Set(keys).size, SCREENSHOTS, `one stored upload per distinct image: ${keys}`);
        assert.equal(keys.length, SCREENSHOTS, "each image is stored once");
        for (const key of keys) {
          assert.equal(sha256File(blobPath(server, key)), key, `blob ${key} holds the bytes of its key`);
        }
        const requests = uploadRequests(server).slice(requestsBefore);
        assert.equal(requests.length, SCREENSHOTS, `upload requests:\n${requests.join("\n")}`);
        for (const line of requests) assert.match(line, /\bstatus=2\d\d\b/);

        for (const blob of storedBlobs(server)) {
          assert.equal(blob.prefix, `${blob.key.slice(0, 2)}/${blob.key.slice(2, 4)}`);
          assert.equal(sha256File(blob.path), blob.key, `stored blob ${blob.path}`);
        }
        assert.deepEqual(temporaryBlobs(server), [], "no temporary upload files are left behind");

        const stored = storedScreenshots(server, build.id);
        if (stored) {
          assert.deepEqual(stored.map((s) => s.name), [...names].sort(), "every screenshot name is stored");
          assert.deepEqual(new Set(stored.map((s) => s.key)), new Set(keys), "screenshots point at the uploaded blobs");
        }
        first = { number: created.number, keys, stored };
      });

      test("2. the same upload again uploads no file", async () => {
        assert.ok(first, "the first upload passed");
        const keysBefore = uploadedKeys(server).length;
        const requestsBefore = uploadRequests(server).length;
        const run = await runCli(cli, repo, ["upload", dir], env());
        assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
        const created = createdBuildNumber(run);
        assert.ok(created, describeRun(cli, run));
        assert.equal(created.number, first.number + 1, "a new build with the next number");

        assert.deepEqual(uploadRequests(server).slice(requestsBefore), [], "no request to the upload routes");
        assert.deepEqual(uploadedKeys(server).slice(keysBefore), [], "no blob stored");

        const build = await getBuild(server, created.number);
        assertBuildShape(build, { number: created.number, commit: repo.commit, branch: repo.branch });
        const stored = storedScreenshots(server, build.id);
        if (stored) assert.deepEqual(stored, first.stored, "the new build has the same screenshots");
      });
    });
  }
});
