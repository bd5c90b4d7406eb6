// Processing benchmark: a build of N screenshot pairs through the API, timed from the
// last upload to the build's conclusion, against odiff run as Argos runs it on the same pairs.
// Run through run.sh (it makes the pairs and finds the binary, the plugins and odiff).
//
//   node process.mjs --pairs N --pairs-dir DIR --odiff BIN [--workers 2] [--odiff-parallel 2]
//                    [--clients 8] [--no-odiff] [--no-loupe]
//
// Loupe: `loupe serve` (port 0, temp data dir, SQLite; a fresh PostgreSQL schema as a second row
// when LOUPE_BENCH_POSTGRES_URL is set) with jobs.workers = --workers and log.level=debug (the job
// runner's job.started / job.done lines, 3 debug lines per job, give the breakdown). A reference
// build on `main` with the N bases, waited for; then a build on `feature` (referenceCommit = the
// reference's commit) with the N heads: t0 = the last head upload's answer, then PUT
// /builds/{id} with the N screenshots in one request (final), then GET the build every 50 ms
// until it is concluded (t1).
// odiff: both Argos passes per pair as separate processes (0.15 and 0.0225, each with
// --antialiasing --diff-mask --parsable-stdout and a diff output file, as Argos's odiff-bin call
// and bench/diff-vs-peers/run.sh do), --odiff-parallel processes at once, on the padded inputs
// (pairs of different sizes padded the way Argos pads them, by diff-vs-peers' peers-timing.mjs).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { LoupeServer } from "../../tests/e2e/support/server.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: opts } = parseArgs({
  options: {
    pairs: { type: "string", default: "1000" },
    "pairs-dir": { type: "string", default: path.join(here, "pairs") },
    odiff: { type: "string", default: path.join(here, "..", "node_modules", "@odiff", "linux-x64", "odiff") },
    workers: { type: "string", default: "2" },
    "odiff-parallel": { type: "string", default: "2" },
    clients: { type: "string", default: "8" },
    "no-odiff": { type: "boolean", default: false },
    "no-loupe": { type: "boolean", default: false },
    "log-dir": { type: "string", default: path.join(here, "runs") },
  },
});
const N = Number(opts.pairs);
const PAIRS_DIR = path.resolve(opts["pairs-dir"]);
const WORKERS = Number(opts.workers);
const ODIFF_PARALLEL = Number(opts["odiff-parallel"]);
const CLIENTS = Number(opts.clients);
const POLL_MS = 50;

const pairId = (i) => `pair-${String(i).padStart(4, "0")}`;
const pairs = Array.from({ length: N }, (_, i) => JSON.parse(fs.readFileSync(path.join(PAIRS_DIR, `${pairId(i)}.json`), "utf8")));
const filePath = (file) => path.join(PAIRS_DIR, file);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const loadavg = () => os.loadavg().map((x) => x.toFixed(2)).join(" ");
const fmt = (x, digits = 1) => (x === undefined || x === null || Number.isNaN(x) ? "-" : x.toFixed(digits));
const percentile = (values, p) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const sum = (values) => values.reduce((a, b) => a + b, 0);
const megapixels = sum(pairs.map((p) => Math.max(p.base.width, p.head.width) * Math.max(p.base.height, p.head.height))) / 1e6;
const totalBytes = sum(pairs.map((p) => p.base.bytes + p.head.bytes));

// --- the server's pid and memory --------------------------------------------------------------

/** pid of the `loupe serve` child of this process. */
function serverPid() {
  const bin = fs.realpathSync(process.env.LOUPE_BIN);
  for (const task of fs.readdirSync(`/proc/${process.pid}/task`)) {
    const children = fs.readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    for (const pid of children) {
      try {
        if (fs.realpathSync(`/proc/${pid}/exe`) === bin) return Number(pid);
      } catch {}
    }
  }
  throw new Error("could not find the loupe serve process among this process's children");
}

function procStatusKb(pid, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) : NaN;
}

// --- API -------------------------------------------------------------------------------------

async function call(server, method, urlPath, { body, token = server.projectToken } = {}) {
  const response = await fetch(new URL(urlPath, server.apiBaseUrl), {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${urlPath} -> ${response.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** PUTs every listed upload with CLIENTS concurrent clients; returns the time the last one was answered. */
async function uploadAll(uploads, fileOfKey) {
  const queue = [...uploads];
  let lastAnswer = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const bytes = fs.readFileSync(fileOfKey.get(item.key));
      const response = await fetch(item.putUrl, { method: "PUT", headers: { "Content-Type": "image/png" }, body: bytes });
      const text = await response.text();
      if (!response.ok) throw new Error(`PUT ${item.putUrl} -> ${response.status} ${text.slice(0, 300)}`);
      lastAnswer = performance.now();
    }
  }));
  return lastAnswer;
}

async function waitConcluded(server, buildPath, pollMs) {
  for (;;) {
    const build = await call(server, "GET", buildPath, { token: server.personalAccessToken });
    if (!["pending", "progress"].includes(build.status)) return { build, at: performance.now() };
    await sleep(pollMs);
  }
}

/**
 * One build: POST /builds with the keys, upload what the server lacks, PUT the screenshots in
 * one request (final), poll until concluded. Times are performance.now() values.
 */
async function runBuild(server, project, side, extra) {
  const keys = pairs.map((p) => p[side].sha256);
  const fileOfKey = new Map(pairs.map((p) => [p[side].sha256, filePath(p[side].file)]));
  const created = await call(server, "POST", "builds", { body: { ...extra, screenshotKeys: keys } });
  const uploadStart = performance.now();
  const uploadEnd = await uploadAll(created.screenshots, fileOfKey);
  const screenshots = pairs.map((p) => ({ key: p[side].sha256, name: p.id, contentType: "image/png" }));
  const putStart = performance.now();
  await call(server, "PUT", `builds/${created.build.id}`, { body: { screenshots } });
  const putEnd = performance.now();
  const buildPath = `projects/${project.owner}/${project.name}/builds/${created.build.number}`;
  const { build, at: concludedAt } = await waitConcluded(server, buildPath, POLL_MS);
  return { created, uploaded: created.screenshots.length, uploadStart, uploadEnd, putStart, putEnd, concludedAt, build, buildPath };
}

async function listDiffs(server, buildPath) {
  const results = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const body = await call(server, "GET", `${buildPath}/diffs?perPage=100&page=${page}`, { token: server.personalAccessToken });
    total = body.pageInfo.total;
    results.push(...body.results);
    if (!body.results.length || results.length >= total) break;
  }
  return { total, results };
}

// --- where the time went, from the server's debug log -------------------------------------------

/** job.started / job.done lines: [{event, kind, id, ms, at (epoch ms)}]. */
function jobEvents(lines) {
  const events = [];
  for (const line of lines) {
    const event = /\bevent=(job\.(?:started|done|attempt_failed|failed))\b/.exec(line)?.[1];
    if (!event) continue;
    events.push({
      event,
      kind: /\bkind=(\S+)/.exec(line)?.[1],
      id: /\bid=(\d+)/.exec(line)?.[1],
      ms: Number(/\bms=([\d.]+)/.exec(line)?.[1]),
      at: Date.parse(/\bts=(\S+)/.exec(line)?.[1]),
    });
  }
  return events;
}

function breakdown(lines, { t0Epoch, putEndEpoch, t1Epoch }) {
  const events = jobEvents(lines).filter((e) => e.at >= t0Epoch - 5);
  const done = (kind) => events.filter((e) => e.event === "job.done" && e.kind === kind);
  const started = (kind) => events.filter((e) => e.event === "job.started" && e.kind === kind);
  const diffDone = done("diff.compute");
  const diffStarted = started("diff.compute");
  const processDone = done("build.process");
  const processStarted = started("build.process");
  const failures = events.filter((e) => e.event !== "job.started" && e.event !== "job.done");
  const diffMs = diffDone.map((e) => e.ms);
  const firstDiff = Math.min(...diffStarted.map((e) => e.at));
  const lastDiff = Math.max(...diffDone.map((e) => e.at));
  return {
    putMs: putEndEpoch - t0Epoch,
    processStartMs: processStarted.length ? processStarted[0].at - t0Epoch : NaN,
    processMs: processDone.length ? processDone[0].ms : NaN,
    firstDiffMs: firstDiff - t0Epoch,
    lastDiffMs: lastDiff - t0Epoch,
    tailMs: t1Epoch - lastDiff,
    diffJobs: diffDone.length,
    diffSumMs: sum(diffMs),
    diffP50: percentile(diffMs, 50),
    diffP99: percentile(diffMs, 99),
    diffMax: Math.max(...diffMs),
    busy: sum(diffMs) / (WORKERS * (lastDiff - firstDiff)),
    failures: failures.length,
  };
}

// --- Loupe -----------------------------------------------------------------------------------

async function runLoupe(postgresUrl) {
  const server = await LoupeServer.start({
    postgresUrl: postgresUrl || undefined,
    settings: [`jobs.workers=${WORKERS}`, "log.level=debug"],
  });
  const label = server.database;
  try {
    const pid = serverPid();
    const projectJson = await call(server, "GET", "project");
    const project = { owner: projectJson.account.slug, name: projectJson.name };
    const stamp = `${Date.now()}-${process.pid}`;
    const commitA = createHash("sha1").update(`loupe-bench-process A ${stamp}`).digest("hex");
    const commitB = createHash("sha1").update(`loupe-bench-process B ${stamp}`).digest("hex");

    console.error(`process: ${label}: reference build on main (${N} bases), load ${loadavg()}`);
    const reference = await runBuild(server, project, "base", { commit: commitA, branch: "main" });
    if (reference.build.status === "error") throw new Error(`reference build ended in error: ${JSON.stringify(reference.build)}`);
    const hwmAfterReference = procStatusKb(pid, "VmHWM");

    console.error(`process: ${label}: feature build (${N} heads), load ${loadavg()}`);
    const loadStart = os.loadavg()[0];
    const epochOffset = Date.now() - performance.now(); // performance.now() -> epoch ms
    const check = await runBuild(server, project, "head", {
      commit: commitB,
      branch: "feature",
      referenceCommit: commitA,
      parentCommits: [commitB, commitA], // as the CLI sends them: the build's own commit first
    });
    const loadEnd = os.loadavg()[0];
    const hwm = procStatusKb(pid, "VmHWM");
    const rss = procStatusKb(pid, "VmRSS");
    const diffs = await listDiffs(server, check.buildPath);
    const t0 = check.uploadEnd;
    const t1 = check.concludedAt;
    const lines = server.logLines();
    const time = breakdown(lines, { t0Epoch: t0 + epochOffset, putEndEpoch: check.putEnd + epochOffset, t1Epoch: t1 + epochOffset });
    fs.mkdirSync(opts["log-dir"], { recursive: true });
    const logFile = path.join(opts["log-dir"], `${new Date().toISOString().replace(/[:.]/g, "-")}-${label}-${N}.log`);
    fs.writeFileSync(logFile, server.output);
    const byStatus = {};
    for (const d of diffs.results) byStatus[d.status] = (byStatus[d.status] ?? 0) + 1;
    return {
      label,
      seconds: (t1 - t0) / 1000,
      uploadSeconds: (check.uploadEnd - check.uploadStart) / 1000,
      uploaded: check.uploaded,
      referenceSeconds: (reference.concludedAt - reference.putEnd) / 1000,
      build: check.build,
      diffsTotal: diffs.total,
      withScore: diffs.results.filter((d) => d.score > 0).length,
      byStatus,
      hwmKb: hwm,
      hwmAfterReferenceKb: hwmAfterReference,
      rssKb: rss,
      time,
      load: [loadStart, loadEnd],
      logFile,
    };
  } catch (error) {
    console.error(`--- server log (last 30 lines)\n${server.logLines().slice(-30).join("\n")}`);
    throw error;
  } finally {
    await server.stop();
  }
}

// --- odiff -----------------------------------------------------------------------------------

/** Padded inputs for odiff: pairs of different sizes go through peers-timing.mjs pad (cached). */
function odiffInputs() {
  const padDir = path.join(PAIRS_DIR, "padded");
  fs.mkdirSync(padDir, { recursive: true });
  const cached = (p) => path.join(padDir, `${p.id}.tsv`);
  const differentSize = pairs.filter((p) => p.base.width !== p.head.width || p.base.height !== p.head.height);
  const todo = differentSize.filter((p) => !fs.existsSync(cached(p)));
  if (todo.length) {
    console.error(`process: padding ${todo.length} pairs of different sizes for odiff (peers-timing.mjs pad)`);
    const list = path.join(padDir, "todo.list");
    fs.writeFileSync(list, todo.map((p) => [p.id, filePath(p.base.file), filePath(p.head.file)].join("\t")).join("\n") + "\n");
    const out = execFileSync("node", [path.join(here, "..", "diff-vs-peers", "peers-timing.mjs"), "pad", list, padDir], {
      maxBuffer: 1 << 26,
      env: { ...process.env, BENCH_NODE_MODULES: process.env.BENCH_NODE_MODULES || path.join(here, "..", "node_modules") },
    }).toString();
    for (const line of out.split("\n").filter(Boolean)) fs.writeFileSync(path.join(padDir, `${line.split("\t")[0]}.tsv`), `${line}\n`);
    fs.rmSync(list);
  }
  return pairs.map((p) => {
    if (!differentSize.includes(p)) return { id: p.id, base: filePath(p.base.file), head: filePath(p.head.file) };
    const [, base, head] = fs.readFileSync(cached(p), "utf8").trim().split("\t");
    return { id: p.id, base, head };
  });
}

function runOdiff(binary, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, out }));
  });
}

async function runOdiffPhase() {
  const inputs = odiffInputs();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-bench-odiff-"));
  const tasks = [];
  for (const input of inputs) {
    tasks.push({ input, pass: "A", threshold: 0.15 });
    tasks.push({ input, pass: "B", threshold: 0.0225 });
  }
  const differing = { A: new Set(), B: new Set() };
  const loadStart = os.loadavg()[0];
  console.error(`process: odiff, ${tasks.length} processes (${ODIFF_PARALLEL} at once), load ${loadavg()}`);
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: ODIFF_PARALLEL }, async (_, slot) => {
      for (let task = tasks.shift(); task; task = tasks.shift()) {
        const output = path.join(work, `slot${slot}-${task.pass}.png`);
        const { code, out } = await runOdiff(opts.odiff, [
          task.input.base, task.input.head, output,
          "--parsable-stdout", "--diff-mask", `--threshold=${task.threshold}`, "--antialiasing",
        ]);
        if (code === 22) differing[task.pass].add(task.input.id);
        else if (code !== 0) throw new Error(`odiff pass ${task.pass} on ${task.input.id} exited ${code}: ${out.slice(0, 300)}`);
      }
    }));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  const eitherPass = new Set([...differing.A, ...differing.B]);
  return { seconds, processes: 2 * inputs.length, differingA: differing.A.size, differingB: differing.B.size, eitherPass: eitherPass.size, load: [loadStart, os.loadavg()[0]] };
}

// --- report ----------------------------------------------------------------------------------

const loupeRows = [];
const overallLoad = os.loadavg()[0];
if (!opts["no-loupe"]) {
  loupeRows.push(await runLoupe(null));
  if (process.env.LOUPE_BENCH_POSTGRES_URL) loupeRows.push(await runLoupe(process.env.LOUPE_BENCH_POSTGRES_URL));
}
const odiff = opts["no-odiff"] ? null : await runOdiffPhase();

const odiffVersion = (() => {
  const run = spawnSync(opts.odiff, ["--version"], { encoding: "utf8" });
  return `${run.stdout ?? ""}${run.stderr ?? ""}`.match(/[0-9]+\.[0-9.]+/)?.[0] ?? "?";
})();
const sizes = {};
for (const p of pairs) {
  const key = `${Math.max(p.base.width, p.head.width)}x${Math.max(p.base.height, p.head.height)}`;
  sizes[key] = (sizes[key] ?? 0) + 1;
}
const variants = {};
for (const p of pairs) variants[p.variant] = (variants[p.variant] ?? 0) + 1;

console.log(`# process bench: ${N} pairs on ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? "?"}), ${new Date().toISOString().slice(0, 16)}Z`);
console.log(`# pairs: ${(megapixels).toFixed(0)} MP compared, ${(totalBytes / 1e6).toFixed(0)} MB of PNG; canvases ${Object.entries(sizes).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} x${v}`).join(", ")}`);
console.log(`# variants: ${Object.entries(variants).map(([k, v]) => `${k} ${v}`).join(", ")}; ${pairs.filter((p) => p.headTextChunk).length} pixel-identical pairs (head differs by a tEXt chunk)`);
console.log(`# loupe ${process.env.LOUPE_BIN}, jobs.workers=${WORKERS}, ${CLIENTS} upload clients, poll every ${POLL_MS} ms; odiff ${odiffVersion}, ${ODIFF_PARALLEL} processes at once`);
console.log(`# load average (1 min) at start ${overallLoad.toFixed(2)}, at end ${os.loadavg()[0].toFixed(2)}`);
for (const r of loupeRows) {
  const t = r.time;
  console.log(`\nLoupe on ${r.label} (server log: ${r.logFile})`);
  console.log(`  reference build (${N} bases): concluded ${fmt(r.referenceSeconds, 2)} s after its PUT`);
  console.log(`  feature build: ${r.uploaded} head uploads in ${fmt(r.uploadSeconds, 2)} s (${fmt(r.uploaded / r.uploadSeconds, 0)}/s, ${CLIENTS} clients)`);
  console.log(`  last upload -> conclusion: ${fmt(r.seconds, 2)} s   (load ${fmt(r.load[0], 2)} -> ${fmt(r.load[1], 2)})`);
  console.log(`  diffs: ${r.diffsTotal} listed (${Object.entries(r.byStatus).map(([k, v]) => `${k} ${v}`).join(", ")}), ${r.withScore} with score > 0, ${t.diffJobs} diff.compute jobs`);
  console.log(`  diffs/s: ${fmt(r.diffsTotal / r.seconds, 1)} (${fmt(megapixels / r.seconds, 1)} MP/s)`);
  console.log(`  build: status ${r.build.status}, conclusion ${r.build.conclusion}, baseline #${r.build.baselineBuild?.number} (${r.build.baselineBuild?.reason}), stats ${JSON.stringify(r.build.stats)}`);
  console.log(`  server peak RSS (VmHWM): ${fmt(r.hwmKb / 1024, 0)} MiB (after the reference build: ${fmt(r.hwmAfterReferenceKb / 1024, 0)} MiB; RSS at the end ${fmt(r.rssKb / 1024, 0)} MiB)`);
  console.log(`  where the time goes (ms after the last upload): PUT answered ${fmt(t.putMs, 0)}, build.process started ${fmt(t.processStartMs, 0)} ` +
    `and took ${fmt(t.processMs, 0)}, first diff started ${fmt(t.firstDiffMs, 0)}, last diff done ${fmt(t.lastDiffMs, 0)}; ` +
    `the poll saw the conclusion ${fmt(Math.round(t.tailMs) + 0, 0)} ms after the last job.done line`);
  console.log(`  diff.compute jobs: ${t.diffJobs}, p50 ${fmt(t.diffP50, 0)} ms, p99 ${fmt(t.diffP99, 0)} ms, max ${fmt(t.diffMax, 0)} ms, sum ${fmt(t.diffSumMs / 1000, 1)} s; ` +
    `workers busy ${fmt(100 * t.busy, 0)} % between first and last diff${t.failures ? `; ${t.failures} failed attempts` : ""}`);
}
if (odiff) {
  console.log(`\nodiff as Argos runs it: ${odiff.processes} processes (2 passes x ${N} pairs), ${ODIFF_PARALLEL} at once`);
  console.log(`  wall time: ${fmt(odiff.seconds, 2)} s (${fmt(N / odiff.seconds, 1)} pairs/s, ${fmt(megapixels / odiff.seconds, 1)} MP/s)   (load ${fmt(odiff.load[0], 2)} -> ${fmt(odiff.load[1], 2)})`);
  console.log(`  pairs with differing pixels: pass A (0.15) ${odiff.differingA}, pass B (0.0225) ${odiff.differingB}, either ${odiff.eitherPass}`);
}
if (odiff && loupeRows.length) {
  console.log("\nratio odiff time / Loupe time (last upload -> conclusion), target > 1:");
  for (const r of loupeRows) {
    const ratio = odiff.seconds / r.seconds;
    console.log(`  ${r.label.padEnd(10)} ${fmt(odiff.seconds, 2)} s / ${fmt(r.seconds, 2)} s = ${ratio.toFixed(2)}x  ${ratio > 1 ? "met" : "MISSED"}`);
  }
}
