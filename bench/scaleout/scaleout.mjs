// The scale-out benchmark: one processing build of PAIRS distinct screenshot pairs, first on one
// `loupe serve`, then on two sharing one PostgreSQL database and one s3rver bucket, on this
// machine. Prints diffs/s, database statements (round trips) per diff and per build, and bucket
// requests and bytes per diff. See README.md.
//
// usage: node scaleout.mjs --postgres URL [--pairs 1000] [--width 800] [--height 600]
//        [--workers 2] [--instances 1,2] [--clients 8]
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { encodePng } from "../../tests/e2e/support/png.mjs";
import { concluded, Instance, postgresSchema, s3Settings, startBucket } from "../../tests/s3/support.mjs";

const options = { pairs: 1000, width: 800, height: 600, workers: 2, instances: "1,2", clients: 8, postgres: process.env.LOUPE_BENCH_POSTGRES_URL };
for (let i = 2; i < process.argv.length; i += 2) options[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
for (const key of ["pairs", "width", "height", "workers", "clients"]) options[key] = Number(options[key]);
assert.ok(options.postgres, "--postgres URL (or LOUPE_BENCH_POSTGRES_URL) is required");

// ---- images: 8-bit RGB PNGs, every file distinct -----------------------------------------
// 3 pairs in 4 get a changed block; the 4th differs by one pixel of one level (under the
// threshold), so every pair needs a diff job, as distinct files do in Argos.
function image(width, height, seed, change) {
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const inBlock = change === "block" && x >= 100 && x < 220 && y >= 80 && y < 140;
      rgb[i] = inBlock ? 0xff : (x + seed) & 0xff;
      rgb[i + 1] = inBlock ? 0 : (y * 2 + (seed >> 8)) & 0xff;
      rgb[i + 2] = inBlock ? 0xff : ((x ^ y) + (seed >> 16)) & 0xff;
    }
  }
  rgb.writeUInt32BE(seed, 0); // the first pixels: the pair's own
  if (change === "pixel") rgb[width * 3 * 10 + 30] ^= 1;
  return encodePng(width, height, rgb);
}
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

console.log(`# making ${options.pairs} pairs of ${options.width}x${options.height} PNGs`);
const bases = [];
const heads = [];
for (let i = 0; i < options.pairs; i++) {
  bases.push(image(options.width, options.height, i * 7919 + 1, null));
  heads.push(image(options.width, options.height, i * 7919 + 1, i % 4 === 0 ? "pixel" : "block"));
}
const megabytes = (bases.concat(heads).reduce((sum, b) => sum + b.length, 0) / 1e6).toFixed(0);
console.log(`# ${megabytes} MB of PNGs`);

// ---- helpers -------------------------------------------------------------------------------
function statements(database) {
  try {
    return Number(database.query("SELECT COALESCE(SUM(calls), 0) FROM public.pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())")[0][0]);
  } catch {
    return null;
  }
}
function transactions(database) {
  return Number(database.query("SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()")[0][0]);
}
function s3Traffic(instances, from, to) {
  let requests = 0;
  let bytes = 0;
  for (const instance of instances) {
    for (const line of instance.logLines("blobs.s3.request")) {
      const at = Date.parse(/ts=(\S+)/.exec(line)[1]);
      if (at < from || at > to) continue;
      requests++;
      bytes += Number(/bytes_out=(\d+)/.exec(line)[1]) + Number(/bytes_in=(\d+)/.exec(line)[1]);
    }
  }
  return { requests, bytes };
}
async function pool(items, concurrency, work) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

async function run(count) {
  const bucket = await startBucket();
  const database = postgresSchema(options.postgres);
  const instances = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      Instance.start({
        name: `bench${i}`,
        databaseUrl: database.url,
        settings: s3Settings(bucket, [`jobs.workers=${options.workers}`, "log.level=debug", "http.threads=16"]),
      }),
    ),
  );
  try {
    const { projectToken: token, personalAccessToken: pat } = instances.map((i) => i.bootstrap()).find(Boolean);
    const me = await instances[0].api("GET", "project", { token });
    const [owner, project] = [me.body.account.slug, me.body.name];
    const commit = "c".repeat(40);
    const at = (i) => instances[i % instances.length];

    const upload = async (images, name, creator) => {
      const keys = images.map(sha256);
      const created = await creator.api("POST", "builds", { token, body: { commit, branch: "bench", name: "scaleout", screenshotKeys: keys } });
      assert.equal(created.status, 201, created.text);
      const byKey = new Map(images.map((bytes, i) => [keys[i], bytes]));
      await pool(created.body.screenshots, options.clients, async ({ key, putUrl }) => {
        const put = await fetch(putUrl, { method: "PUT", body: byKey.get(key), headers: { "Content-Type": "image/png" } });
        assert.equal(put.status, 200);
      });
      return { id: created.body.build.id, number: created.body.build.number, screenshots: keys.map((key, i) => ({ key, name: `${name}-${i}.png` })) };
    };
    const finalize = async (build, instance) => {
      const put = await instance.api("PUT", `builds/${build.id}`, { token, body: { screenshots: build.screenshots, parallel: false } });
      assert.equal(put.status, 200, put.text);
    };

    const reference = await upload(bases, "pair", at(0));
    await finalize(reference, at(1));
    await concluded(at(0), pat, owner, project, reference.number, 1_800_000);

    const statementsBefore = statements(database);
    const xactBefore = transactions(database);
    const check = await upload(heads, "pair", at(1));
    const t0 = Date.now(); // the last upload was answered
    const statementsUploaded = statements(database);
    const xactUploaded = transactions(database);
    await finalize(check, at(0));
    const done = await concluded(at(1), pat, owner, project, check.number, 3_600_000);
    const t1 = Date.now();
    const diffs = Number(database.query(`SELECT COUNT(*) FROM screenshot_diffs WHERE build_id = ${check.id}`)[0][0]);
    const computed = Number(database.query(`SELECT COUNT(*) FROM jobs WHERE kind = 'diff.compute'`)[0][0]);
    const statementsAfter = statements(database);
    const xactAfter = transactions(database);
    const traffic = s3Traffic(instances, t0, t1);
    return {
      instances: count,
      seconds: (t1 - t0) / 1000,
      diffs,
      computed,
      changed: done.stats.changed,
      diffsPerSecond: computed / ((t1 - t0) / 1000),
      statementsPerDiff: statementsAfter == null ? null : (statementsAfter - statementsUploaded) / computed,
      statementsPerBuild: statementsAfter == null ? null : statementsAfter - statementsBefore,
      transactionsPerDiff: (xactAfter - xactUploaded) / computed,
      transactionsPerBuild: xactAfter - xactBefore,
      s3RequestsPerDiff: traffic.requests / computed,
      s3BytesPerDiff: traffic.bytes / computed,
    };
  } finally {
    for (const instance of instances) await instance.stop();
    await bucket.stop();
    database.drop();
  }
}

const results = [];
for (const count of options.instances.split(",").map(Number)) {
  console.log(`# ${count} instance(s), ${options.workers} job workers each`);
  const result = await run(count);
  console.log(JSON.stringify(result));
  results.push(result);
}
const fixed = (value, digits = 1) => (value == null ? "n/a" : value.toFixed(digits));
console.log(`\n${options.pairs} pairs of ${options.width}x${options.height}, PostgreSQL + s3rver on this machine (${execFileSync("nproc").toString().trim()} cores)`);
console.log("| instances | last upload → conclusion | diffs computed | diffs/s | DB statements per diff | DB statements per build | DB transactions per diff | bucket requests per diff | bucket bytes per diff |");
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of results) {
  console.log(`| ${r.instances} | ${fixed(r.seconds)} s | ${r.computed} | ${fixed(r.diffsPerSecond)} | ${fixed(r.statementsPerDiff)} | ${r.statementsPerBuild ?? "n/a"} | ${fixed(r.transactionsPerDiff)} | ${fixed(r.s3RequestsPerDiff)} | ${fixed(r.s3BytesPerDiff / 1024, 0)} KiB |`);
}
if (results.length === 2) console.log(`\n2 instances / 1 instance, diffs/s: ${fixed(results[1].diffsPerSecond / results[0].diffsPerSecond, 2)}x`);
