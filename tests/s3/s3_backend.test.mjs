// One Loupe on the S3 backend (SQLite, or PostgreSQL with LOUPE_TEST_POSTGRES_URL) against
// s3rver: the official Argos CLI uploads two builds whose screenshots land in the bucket and
// are diffed, downloads are presigned GETs from the bucket, and a tampered presigned upload
// never becomes a screenshot.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { clis, describeRun, GitRepo, runCli } from "../e2e/support/cli.mjs";
import { patternPng } from "../e2e/support/png.mjs";
import { concluded, Instance, missingPrerequisite, postgresSchema, s3Settings, startBucket } from "./support.mjs";

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const skip = missingPrerequisite();
if (skip) console.log(`# S3 e2e skipped: ${skip}`);

describe("S3 backend, one instance", { skip: skip ?? false }, () => {
  let bucket;
  let database;
  let loupe;
  let token;
  let pat;
  let owner;
  let project;

  before(async () => {
    bucket = await startBucket();
    database = process.env.LOUPE_TEST_POSTGRES_URL ? postgresSchema() : null;
    loupe = await Instance.start({ databaseUrl: database?.url, settings: s3Settings(bucket) });
    ({ projectToken: token, personalAccessToken: pat } = loupe.bootstrap());
    const me = await loupe.api("GET", "project", { token });
    owner = me.body.account.slug;
    project = me.body.name;
  });
  after(async () => {
    await loupe?.stop();
    await bucket?.stop();
    database?.drop();
  });

  test("/readyz checks the bucket", async () => {
    const ready = await fetch(`${loupe.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { blobs: "ok", database: "ok", status: "ready" });
  });

  test("the Argos CLI uploads into the bucket; the diffs are computed and served from it", async () => {
    const cli = clis[0];
    const repo = new GitRepo();
    const files = {
      base: { "home.png": patternPng("s3/home"), "about.png": patternPng("s3/about") },
      head: {
        "home.png": patternPng("s3/home", { paint: { x: 4, y: 4, width: 12, height: 10 } }),
        "about.png": patternPng("s3/about"),
      },
    };
    const env = { ARGOS_API_BASE_URL: loupe.apiBaseUrl, ARGOS_TOKEN: token };
    const upload = async (set) => {
      const dir = join(repo.root, "screens");
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      for (const [name, bytes] of Object.entries(files[set])) writeFileSync(join(dir, name), bytes);
      const run = await runCli(cli, repo, ["upload", dir, "--build-name", "s3"], env);
      assert.equal(run.code, 0, `${describeRun(cli, run)}\n${loupe.output.slice(-3000)}`);
      const number = Number(/Build created: \S+\/builds\/(\d+)/.exec(run.output)[1]);
      return concluded(loupe, pat, owner, project, number);
    };
    const first = await upload("base");
    assert.equal(first.stats.added, 2, JSON.stringify(first)); // orphan: nothing to compare
    const second = await upload("head");
    assert.equal(second.baselineBuild?.number, first.number, JSON.stringify(second));
    assert.equal(second.status, "changes-detected", JSON.stringify(second));

    const diffs = await loupe.api("GET", `projects/${owner}/${project}/builds/${second.number}/diffs`, { token: pat });
    assert.equal(diffs.status, 200, diffs.text);
    const changed = diffs.body.results.filter((diff) => diff.status === "changed");
    assert.equal(changed.length, 1, JSON.stringify(diffs.body));
    assert.equal(diffs.body.results.filter((diff) => diff.status === "unchanged").length, 1);

    // Every screenshot and the mask are verified blobs in the bucket, downloaded through
    // presigned GETs; nothing waits in incoming/ and nothing was stored on the local disk.
    const blobs = bucket.objects("blobs/");
    const served = [];
    for (const diff of diffs.body.results) {
      for (const url of [diff.base?.url, diff.head?.url, diff.url].filter(Boolean)) {
        assert.ok(url.startsWith(`${bucket.endpoint}/${bucket.bucket}/blobs/`), url);
        const key = /\/blobs\/([0-9a-f]{64})\?/.exec(url)[1];
        const got = await fetch(url);
        assert.equal(got.status, 200, url);
        assert.equal(got.headers.get("content-type"), "image/png");
        assert.equal(sha256(Buffer.from(await got.arrayBuffer())), key, `bytes of ${url}`);
        assert.ok(blobs.includes(`blobs/${key}`), `blobs/${key} in ${blobs}`);
        served.push(key);
      }
    }
    assert.equal(new Set(served).size, 4, "3 distinct screenshots and 1 mask"); // about.png twice
    assert.equal(blobs.length, 4, blobs.join(","));
    assert.deepEqual(bucket.objects("incoming/"), []);
    assert.equal(existsSync(join(loupe.dataDir, "blobs")), false);
  });

  test("a tampered presigned upload is refused and never becomes a screenshot", async () => {
    const honest = patternPng("s3/tampered");
    const key = sha256(honest);
    const commit = "a".repeat(40);
    const created = await loupe.api("POST", "builds", {
      token,
      body: { commit, branch: "tamper", name: "tamper", screenshotKeys: [key] },
    });
    assert.equal(created.status, 201, created.text);
    const { putUrl } = created.body.screenshots[0];
    assert.ok(putUrl.startsWith(`${bucket.endpoint}/${bucket.bucket}/incoming/${key}?`), putUrl);

    const forged = Buffer.from(honest);
    forged[forged.length - 20] ^= 0xff;
    const put = await fetch(putUrl, { method: "PUT", body: forged, headers: { "Content-Type": "image/png" } });
    assert.equal(put.status, 200); // the bucket cannot tell; Loupe checks before it counts

    const buildId = created.body.build.id;
    const refused = await loupe.api("PUT", `builds/${buildId}`, {
      token,
      body: { screenshots: [{ key, name: "tampered.png" }], parallel: false },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.text, new RegExp(key));
    assert.equal(bucket.objects(`incoming/${key}`).length, 0, "the forged object was removed");
    assert.equal(bucket.objects(`blobs/${key}`).length, 0);

    const retry = await fetch(putUrl, { method: "PUT", body: honest, headers: { "Content-Type": "image/png" } });
    assert.equal(retry.status, 200);
    const accepted = await loupe.api("PUT", `builds/${buildId}`, {
      token,
      body: { screenshots: [{ key, name: "tampered.png" }], parallel: false },
    });
    assert.equal(accepted.status, 200, accepted.text);
    assert.ok(bucket.object(`blobs/${key}`).equals(honest));
  });
});
