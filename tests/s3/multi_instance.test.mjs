// Two `loupe serve` instances on one PostgreSQL database and one s3rver bucket: started
// together they migrate once and bootstrap once; a token and a signed URL issued by one are
// accepted by the other; builds whose requests are spread over both are diffed exactly once;
// and when one is killed with SIGKILL in the middle of a build, the other finishes its jobs.
// Needs LOUPE_TEST_POSTGRES_URL (SQLite is one process's file: skipped there).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { patternPng } from "../e2e/support/png.mjs";
import { concluded, Instance, missingPrerequisite, postgresSchema, s3Settings, startBucket } from "./support.mjs";

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const skip = missingPrerequisite() ?? (process.env.LOUPE_TEST_POSTGRES_URL ? null : "needs LOUPE_TEST_POSTGRES_URL");
if (skip) console.log(`# multi-instance tests skipped: ${skip}`);

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

describe("two instances, one PostgreSQL database, one bucket", { skip: skip ?? false }, () => {
  let bucket;
  let database;
  let a;
  let b;
  let token;
  let pat;
  let owner;
  let project;
  let commitCounter = 0;

  const settings = () =>
    s3Settings(bucket, [
      "blobs.s3.downloads=proxy",
      "jobs.workers=1",
      "jobs.lease_ms=2000",
      "jobs.poll_ms=50",
      "log.level=debug",
    ]);

  const images = (prefix, count, { changed = false, width = 48, height = 40 } = {}) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `${prefix}-${i}.png`,
        patternPng(`${prefix}/${i}`, { width, height, paint: changed ? { x: 2, y: 2, width: 9, height: 7 } : null }),
      ]),
    );

  let killImages;
  before(async () => {
    // Made before any request: generating them blocks the event loop long enough for a
    // keep-alive connection to be closed by a server unnoticed.
    killImages = {
      bases: images("kill", 20, { width: 240, height: 180 }),
      heads: images("kill", 20, { changed: true, width: 240, height: 180 }),
    };
    bucket = await startBucket();
    database = postgresSchema();
    [a, b] = await Promise.all([
      Instance.start({ name: "a", databaseUrl: database.url, settings: settings() }),
      Instance.start({ name: "b", databaseUrl: database.url, settings: settings() }),
    ]);
    const credentials = a.bootstrap() ?? b.bootstrap();
    ({ projectToken: token, personalAccessToken: pat } = credentials);
    const me = await a.api("GET", "project", { token });
    owner = me.body.account.slug;
    project = me.body.name;
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await bucket?.stop();
    database?.drop();
  });

  /** A build of `images` ({name: bytes}): created on `creator`, uploaded to the bucket, finalized on `finalizer`. */
  async function build(creator, finalizer, images, { commit, name = "multi" } = {}) {
    const keys = Object.fromEntries(Object.entries(images).map(([file, bytes]) => [file, sha256(bytes)]));
    const created = await creator.api("POST", "builds", {
      token,
      body: { commit, branch: "multi", name, screenshotKeys: [...new Set(Object.values(keys))] },
    });
    assert.equal(created.status, 201, created.text);
    const byKey = Object.fromEntries(Object.entries(keys).map(([file, key]) => [key, images[file]]));
    for (const { key, putUrl } of created.body.screenshots) {
      const put = await fetch(putUrl, { method: "PUT", body: byKey[key], headers: { "Content-Type": "image/png" } });
      assert.equal(put.status, 200, putUrl);
    }
    const finalized = await finalizer.api("PUT", `builds/${created.body.build.id}`, {
      token,
      body: { screenshots: Object.entries(keys).map(([file, key]) => ({ key, name: file })), parallel: false },
    });
    assert.equal(finalized.status, 200, finalized.text);
    return { id: Number(created.body.build.id), number: created.body.build.number };
  }

  const diffJobs = () =>
    database.query("SELECT id, status, attempts, locked_by, payload FROM jobs WHERE kind = 'diff.compute' ORDER BY id");

  test("started together, they migrate once and bootstrap once", () => {
    const applied = [...a.logLines("migration.applied"), ...b.logLines("migration.applied")].map(
      (line) => `${/track=(\S+)/.exec(line)[1]}/${/version=(\d+)/.exec(line)[1]}`,
    );
    const rows = database.query("SELECT plugin, version FROM schema_migrations").map(([plugin, version]) => `${plugin}/${version}`);
    assert.ok(rows.length >= 4, rows.join(","));
    assert.deepEqual([...applied].sort(), [...rows].sort(), "each step applied by exactly one instance");
    assert.equal([a.bootstrap(), b.bootstrap()].filter(Boolean).length, 1, "one bootstrap.json");
    assert.equal(Number(database.query("SELECT COUNT(*) FROM users")[0][0]), 1);
  });

  test("a token and a signed URL issued by one instance are accepted by the other", async () => {
    for (const instance of [a, b]) {
      assert.equal((await instance.api("GET", "project", { token })).status, 200);
      assert.equal((await instance.api("GET", `projects/${owner}/${project}/builds`, { token: pat })).status, 200);
      const ready = await fetch(`${instance.url}/readyz`);
      assert.equal(ready.status, 200);
    }
    const shots = images("signed", 1);
    const { number } = await build(a, a, shots, { commit: (++commitCounter).toString(16).padStart(40, "0"), name: "signed" });
    await concluded(a, pat, owner, project, number);
    const diffs = await a.api("GET", `projects/${owner}/${project}/builds/${number}/diffs`, { token: pat });
    const url = diffs.body.results[0].head.url;
    assert.ok(url.startsWith(`${a.url}/blobs/`), url);
    const fromB = await fetch(url.replace(a.url, b.url));
    assert.equal(fromB.status, 200);
    assert.equal(sha256(Buffer.from(await fromB.arrayBuffer())), sha256(shots["signed-0.png"]));
    const forged = url.replace(a.url, b.url).replace(/signature=[0-9a-f]/, (m) => (m.endsWith("0") ? m.slice(0, -1) + "1" : m.slice(0, -1) + "0"));
    assert.equal((await fetch(forged)).status, 403);
  });

  test("requests spread over both: every diff is computed exactly once", async () => {
    const commit = (++commitCounter).toString(16).padStart(40, "0");
    const before = new Set(diffJobs().map(([id]) => id));
    const sets = [images("spread", 12), images("spread", 12, { changed: true }), images("spread", 12, { changed: true, width: 50 })];
    const reference = await build(a, b, sets[0], { commit });
    await concluded(b, pat, owner, project, reference.number);
    const checks = [await build(b, a, sets[1], { commit }), await build(a, b, sets[2], { commit })];
    for (const check of checks) {
      const done = await concluded(a, pat, owner, project, check.number);
      assert.equal(done.stats.changed, 12, JSON.stringify(done));
      const rows = database.query(
        `SELECT COUNT(*), COUNT(DISTINCT head_screenshot_id), SUM(CASE WHEN job_status = 'complete' THEN 1 ELSE 0 END) FROM screenshot_diffs WHERE build_id = ${check.id}`,
      );
      assert.deepEqual(rows[0].map(Number), [12, 12, 12]);
    }
    const jobs = diffJobs().filter(([id]) => !before.has(id));
    assert.equal(jobs.length, 24, JSON.stringify(jobs));
    for (const [id, status, attempts] of jobs) {
      assert.equal(status, "done", `job ${id}`);
      assert.equal(Number(attempts), 1, `job ${id} ran once`);
    }
    const started = [...a.logLines("job.started"), ...b.logLines("job.started")]
      .filter((line) => line.includes("kind=diff.compute"))
      .map((line) => /\bid=(\d+)/.exec(line)[1]);
    for (const [id] of jobs) {
      assert.equal(started.filter((value) => value === id).length, 1, `diff job ${id} started once across both instances`);
    }
    const holders = new Set(database.query("SELECT DISTINCT locked_by FROM jobs WHERE locked_by IS NOT NULL").map(([holder]) => holder));
    assert.ok(holders.has(a.instanceId) && holders.has(b.instanceId), `both instances ran jobs: ${[...holders]}`);
  });

  test("one instance killed with SIGKILL mid-processing: the other finishes its jobs", async () => {
    const commit = (++commitCounter).toString(16).padStart(40, "0");
    const { bases, heads } = killImages;
    const reference = await build(b, b, bases, { commit, name: "kill" });
    await concluded(b, pat, owner, project, reference.number);
    const before = new Set(diffJobs().map(([id]) => id));
    const check = await build(b, a, heads, { commit, name: "kill" });

    // Kill `a` without warning the moment it starts a diff job of the build.
    const killed = new Promise((done) => a.onOutput(/event=job\.started kind=diff\.compute/, () => done(a.kill("SIGKILL"))));
    let timer;
    const timeout = new Promise((done) => (timer = setTimeout(() => done("timeout"), 60_000)));
    const outcome = await Promise.race([killed, timeout]);
    clearTimeout(timer);
    assert.notEqual(outcome, "timeout", "instance a started a diff job");
    const orphaned = diffJobs().filter(([id, status, , holder]) => !before.has(id) && status === "running" && holder === a.instanceId);
    assert.ok(orphaned.length >= 1, "a diff job was running on the killed instance");

    const done = await concluded(b, pat, owner, project, check.number, 120_000);
    assert.equal(done.stats.changed, 20, JSON.stringify(done));
    const rows = database.query(
      `SELECT COUNT(*), COUNT(DISTINCT head_screenshot_id), SUM(CASE WHEN job_status = 'complete' THEN 1 ELSE 0 END) FROM screenshot_diffs WHERE build_id = ${check.id}`,
    );
    assert.deepEqual(rows[0].map(Number), [20, 20, 20]);
    const jobs = diffJobs().filter(([id]) => !before.has(id));
    assert.equal(jobs.length, 20);
    assert.ok(jobs.every(([, status]) => status === "done"), JSON.stringify(jobs));
    for (const [id] of orphaned) {
      const retaken = jobs.find(([jobId]) => jobId === id);
      assert.equal(retaken[3], b.instanceId, `job ${id} of the killed instance was claimed again by the other`);
      assert.ok(Number(retaken[2]) >= 2, `job ${id} counted a second attempt`);
    }
  });
});
