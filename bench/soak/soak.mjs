// Soak: mixed traffic from many clients against one `loupe serve` while a chaos loop kills it
// with SIGKILL and starts it again, then an integrity check of everything it stored. Prints
// requests served, errors by kind, resident memory over time and the check; exits non-zero on
// lost or inconsistent data or growing memory. Node built-ins only (plus the sqlite3 or psql
// command for the database checks); run it through run.sh, which finds the build.
//
// Each client loops over: a build (POST /builds, the uploads through the signed upload URLs,
// PUT /builds/{id}) of the same four screenshot names, two of them changing from build to
// build, on main (reference builds) or on a feature branch against a main commit; and reads:
// the build list, a build, its diff list, /healthz.
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { patternPng } from "../../tests/e2e/support/png.mjs";
import { s3Settings, startBucket } from "../../tests/s3/support.mjs";

const { values: options } = parseArgs({
  options: {
    seconds: { type: "string", default: "600" },
    clients: { type: "string", default: "32" },
    "kill-every": { type: "string", default: "90" },
    postgres: { type: "string", default: "" },
    instances: { type: "string", default: "1" },
    s3: { type: "boolean", default: false },
    "port-thief-after-kill": { type: "string", default: "0" },
  },
});
const SECONDS = Number(options.seconds);
const CLIENTS = Number(options.clients);
const KILL_EVERY = Number(options["kill-every"]);
const INSTANCES = Number(options.instances);
if (INSTANCES > 1 && !(options.postgres && options.s3)) {
  console.error("soak: several instances share one database and one bucket: give --postgres URL and --s3");
  process.exit(2);
}
const NAMES = ["page-0", "page-1", "page-2", "page-3"];
// Pictures each changing name draws from: most builds upload something new, and some changes
// recur (which the project's auto-ignore then ignores).
const VARIANTS = 400;
const RETRY_FOR_MS = 60_000; // how long an idempotent request is retried while the server is down
const loupeBin = process.env.LOUPE_BIN;
const pluginDir = process.env.LOUPE_PLUGIN_DIR;
const sourceDir = process.env.LOUPE_SOURCE_DIR;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const sha1 = (text) => createHash("sha1").update(text).digest("hex");
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** Whether `port` can be listened on now. */
function canListen(port) {
  return new Promise((done) => {
    const probe = createServer();
    probe.once("error", () => done(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => done(true)));
  });
}

/**
 * A free port the kernel never hands out on its own. The server is restarted on the same port
 * after each kill; a port of the ephemeral range (what `listen(0)` and outgoing connections get)
 * may be taken meanwhile by any other program on the machine (another test's server started
 * with port 0), and the restarted server then cannot listen.
 */
async function freePort() {
  let [low] = [32768];
  try {
    [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
  } catch {}
  const floor = 10000;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = floor + Math.floor(Math.random() * Math.max(1, low - floor));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${floor} and ${low}`);
}

// ---------------------------------------------------------------------------------------------
// The database, and SQL through its command-line client for the integrity check.

const root = mkdtempSync(join(tmpdir(), "loupe-soak-"));
const dataDir = join(root, "data");
// --s3: the blobs in a bucket of s3rver (tests/s3, `npm ci` there), in a process of its own.
const bucket = options.s3 ? await startBucket() : null;
let database;
if (options.postgres) {
  const schema = `soak_${randomBytes(6).toString("hex")}`;
  execFileSync("psql", [options.postgres, "-v", "ON_ERROR_STOP=1", "-qc", `CREATE SCHEMA ${schema}`]);
  const separator = options.postgres.includes("?") ? "&" : "?";
  const url = `${options.postgres}${separator}options=-csearch_path%3D${schema}`;
  database = {
    name: "PostgreSQL",
    url,
    query: (sql) => execFileSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-AtF", "\t", "-c", sql], { encoding: "utf8" }),
    drop: () =>
      execFileSync("psql", [options.postgres, "-qc", `SET client_min_messages TO warning; DROP SCHEMA IF EXISTS ${schema} CASCADE`]),
  };
} else {
  const file = join(dataDir, "loupe.db");
  database = {
    name: "SQLite",
    url: `sqlite:${file}`,
    query: (sql) => execFileSync("sqlite3", ["-bail", "-separator", "\t", file, sql], { encoding: "utf8" }),
    drop() {},
  };
}
/** Rows of tab-separated columns. */
const rows = (sql) =>
  database
    .query(sql)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.split("\t"));
const number = (sql) => Number(rows(sql)[0]?.[0] ?? "0");

// ---------------------------------------------------------------------------------------------
// The servers, killed and started again on the same port and data. With --instances 2 (on
// PostgreSQL and an S3 bucket) the chaos loop kills one instance at a time.

const blobSettings = bucket ? s3Settings(bucket) : [];
const slots = [];
for (let index = 0; index < INSTANCES; index++) {
  const port = await freePort();
  slots.push({
    index,
    port,
    base: `http://127.0.0.1:${port}`,
    dataDir: index === 0 ? dataDir : join(root, `data-${index}`),
    server: null, // { process, pid, lifetime, output, exited, expected }
    restarting: false,
    lastKillAt: 0,
  });
}
let lifetime = 0;
const lifetimes = []; // { lifetime, instance, startedAt, endedAt, end }
const unexpectedExits = []; // { lifetime (null: a start that failed), instance, status, aliveSeconds, output }
const which = (exit) => `${exit.lifetime === null ? "a start" : `lifetime ${exit.lifetime}`} of instance ${exit.instance}`;

/** One start of `loupe serve` on the slot; resolves with its entry once it listens, or throws. */
async function spawnServer(slot) {
  const child = spawn(
    loupeBin,
    [
      "--config", join(sourceDir, "etc/loupe.properties"),
      "--set", `http.port=${slot.port}`,
      "--set", "http.listen_address=127.0.0.1",
      "--set", `data.dir=${slot.dataDir}`,
      "--set", `db.url=${database.url}`,
      "--set", `plugins.path=${pluginDir}`,
      "--set", "plugins.enabled=auth,builds",
      // A killed server's jobs are claimed again once their lease runs out.
      "--set", "jobs.lease_ms=6000",
      "--set", "log.level=warn",
      ...blobSettings.flatMap((setting) => ["--set", setting]),
      "serve",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const entry = { process: child, pid: child.pid, lifetime: lifetime + 1, output: "", expected: false, exit: null };
  entry.exited = new Promise((done) =>
    child.on("exit", (code, signal) => {
      entry.exit = { code, signal };
      done(entry.exit);
    }),
  );
  // The whole output of each lifetime is kept (the server logs at warn): it is what explains an
  // exit nobody asked for.
  const collect = (data) => {
    entry.output += data.toString();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  // Started means: this process says it listens on the slot's port, and then answers there. A
  // /healthz answer alone could come from another program holding the port.
  const listening = `loupe: listening on http://127.0.0.1:${slot.port} (pid ${child.pid})`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (entry.exit) return entry;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`loupe serve did not start in 60 s:\n${entry.output}`);
    }
    if (entry.output.includes(listening)) {
      try {
        const health = await fetch(`${slot.base}/healthz`, { signal: AbortSignal.timeout(1000) });
        if (health.ok) break;
      } catch {}
    }
    await sleep(50);
  }
  return entry;
}

/**
 * Starts the slot's server. A start whose process exits before it listens is recorded like any
 * exit the chaos loop did not cause (status and output), and tried again a few times.
 */
async function startServer(slot) {
  for (let attempt = 1; ; attempt++) {
    const entry = await spawnServer(slot);
    if (!entry.exit) {
      registerLifetime(slot, entry);
      return;
    }
    const status = entry.exit.signal ? `signal ${entry.exit.signal}` : `exit code ${entry.exit.code}`;
    unexpectedExits.push({ lifetime: null, instance: slot.index, status: `${status} while starting`, aliveSeconds: 0, output: entry.output });
    console.error(`!! a start of instance ${slot.index} failed (${status}); its output:\n${entry.output || "(none)"}\n!! end of its output`);
    if (attempt >= 5) throw new Error(`instance ${slot.index} failed to start ${attempt} times in a row`);
    await sleep(2000);
  }
}

function registerLifetime(slot, entry) {
  lifetime += 1;
  entry.lifetime = lifetime;
  entry.startedAt = Date.now();
  lifetimes.push({ lifetime, instance: slot.index, startedAt: entry.startedAt, endedAt: null, end: "running" });
  slot.server = entry;
}

/**
 * A check of the soak itself (--port-thief-after-kill N): right after the Nth kill another
 * program takes the port for a few seconds and answers as another Loupe would (/healthz 200,
 * anything else 401), as a server of another test on the machine could. The restarted server
 * cannot listen; the soak must notice and fail.
 */
async function stealPort(slot, seconds = 4) {
  const thief = createHttpServer((request, response) => {
    const health = request.url === "/healthz";
    response.writeHead(health ? 200 : 401, { "Content-Type": "application/json" });
    response.end(health ? '{"status":"ok"}' : '{"error":"Unauthorized"}');
  });
  await new Promise((done, fail) => {
    thief.once("error", fail);
    thief.listen(slot.port, "127.0.0.1", done);
  });
  console.error(`!! (--port-thief-after-kill) another program holds port ${slot.port} for ${seconds} s`);
  setTimeout(() => {
    thief.close();
    thief.closeAllConnections();
  }, seconds * 1000);
}

function endLifetime(entry, end) {
  const record = lifetimes.find((l) => l.lifetime === entry.lifetime);
  if (record && record.endedAt === null) {
    record.endedAt = Date.now();
    record.end = end;
  }
}

async function killServer(slot) {
  slot.server.expected = true;
  slot.server.process.kill("SIGKILL");
  await slot.server.exited;
  endLifetime(slot.server, "SIGKILL (chaos)");
}

/** Records an exit the chaos loop did not cause: exit status, output. Returns true if one. */
function checkUnexpectedExit(slot) {
  const entry = slot.server;
  if (!entry || entry.expected || !entry.exit) return false;
  entry.expected = true; // recorded once
  const aliveSeconds = (Date.now() - entry.startedAt) / 1000;
  const status = entry.exit.signal ? `signal ${entry.exit.signal}` : `exit code ${entry.exit.code}`;
  endLifetime(entry, `EXITED BY ITSELF (${status})`);
  unexpectedExits.push({ lifetime: entry.lifetime, instance: slot.index, status, aliveSeconds, output: entry.output });
  console.error(
    `!! server lifetime ${entry.lifetime} (instance ${slot.index}, pid ${entry.pid}) exited by itself after ` +
      `${aliveSeconds.toFixed(1)} s with ${status}; its output:\n${entry.output || "(none)"}\n!! end of its output`,
  );
  return true;
}

// ---------------------------------------------------------------------------------------------
// Accounting.

const served = {}; // operation -> requests answered
const errors = {}; // kind -> count
const tally = (table, key) => (table[key] = (table[key] ?? 0) + 1);
const acknowledged = new Map(); // number -> { keys } of builds whose PUT /builds/{id} answered 200
let createdAnswered = 0; // POST /builds answered 201
let createsUnanswered = 0; // POST /builds cut by a kill: the build may or may not exist
let abandoned = 0; // created, but the client could not finish it (a refused upload or PUT)
const mainCommits = [];
let unjudged = 0; // concluded builds whose baseline's screenshots the soak does not know
const unjudgedExamples = [];

class ConnectionLost extends Error {}

function connectionKind(error, slot) {
  const instance = INSTANCES > 1 && slot ? ` on instance ${slot.index}` : "";
  if (error.name === "TimeoutError") return `timeout${instance}`;
  const code = error.cause?.code ?? error.code ?? error.cause?.name ?? "unknown";
  // Connections opened to the killed server fail for a moment after it is back.
  const aroundKill = slot && (slot.restarting || Date.now() - slot.lastKillAt < 5000);
  return `connection ${code}${instance}${aroundKill ? " (around a kill)" : " (OUTSIDE any kill)"}`;
}

/** The instance a URL goes to (null for the bucket's own URLs). */
const slotOf = (url) => slots.find((slot) => url.startsWith(`${slot.base}/`)) ?? null;

/**
 * One request: `target` is a path, sent to instance `via` (a client keeps to one instance, as
 * behind a sticky load balancer), or a whole URL (a signed upload URL). Connection failures are
 * retried for up to RETRY_FOR_MS when `retry` is set (an idempotent request: the same upload,
 * the same PUT /builds/{id}), on the next instance when there are several (as a load balancer
 * retries elsewhere); every failure is tallied.
 */
async function call(operation, method, target, { token, json, body, contentType, retry = false, via = 0 } = {}) {
  const giveUpAt = Date.now() + RETRY_FOR_MS;
  let path = target;
  let slot = slots[via % INSTANCES];
  if (!target.startsWith("/")) {
    slot = slotOf(target);
    path = slot ? target.slice(slot.base.length) : null;
  }
  for (;;) {
    const url = path === null ? target : `${slot.base}${path}`;
    try {
      const headers = {};
      if (token) headers.Authorization = `Bearer ${token}`;
      if (json !== undefined) headers["Content-Type"] = "application/json";
      if (contentType) headers["Content-Type"] = contentType;
      const response = await fetch(url, {
        method,
        headers,
        body: json !== undefined ? JSON.stringify(json) : body,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      tally(served, operation);
      if (response.status >= 500) tally(errors, `${operation}: HTTP ${response.status}`);
      let parsed = null;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: response.status, json: parsed };
    } catch (error) {
      tally(errors, connectionKind(error, slot));
      if (!retry || Date.now() > giveUpAt) throw new ConnectionLost(`${operation}: ${error.message}`);
      if (slot) slot = slots[(slot.index + 1) % INSTANCES];
      await sleep(250);
    }
  }
}

/** What a refused request said: its error and first detail, keys and numbers blanked so that
 * the same reason tallies once. */
function reasonOf(json) {
  if (!json || typeof json.error !== "string") return "(no JSON error)";
  const detail = json.details?.[0]?.message ?? "";
  return `${json.error}${detail ? ` (${detail})` : ""}`.replace(/[0-9a-f]{64}/g, "KEY").replace(/\d+/g, "N");
}

let tokens = null;
function readTokens() {
  const bootstrap = JSON.parse(readFileSync(join(dataDir, "bootstrap.json"), "utf8"));
  tokens = { project: bootstrap.projectToken, personal: bootstrap.personalAccessToken };
}

// ---------------------------------------------------------------------------------------------
// Traffic.

const pictures = new Map(); // seed -> PNG bytes
function picture(seed) {
  if (!pictures.has(seed)) pictures.set(seed, patternPng(seed));
  return pictures.get(seed);
}

async function buildFlow(client, round) {
  const onMain = round % 4 === 0 || mainCommits.length === 0;
  const commit = sha1(`${client}-${round}-${randomBytes(4).toString("hex")}`);
  const body = { commit, branch: onMain ? "main" : `feature-${client}` };
  if (onMain) {
    if (mainCommits.length) body.parentCommits = [commit, mainCommits[mainCommits.length - 1]];
  } else {
    const reference = mainCommits[Math.floor(Math.random() * mainCommits.length)];
    body.referenceCommit = reference;
    body.parentCommits = [commit, reference];
  }
  const files = NAMES.map((name, i) => picture(i < 2 ? `${name}-${Math.floor(Math.random() * VARIANTS)}` : name));
  const keys = files.map(sha256);
  body.screenshotKeys = [...new Set(keys)];
  let created;
  try {
    created = await call("POST /builds", "POST", "/v2/builds", { token: tokens.project, json: body, via: client });
  } catch (error) {
    if (error instanceof ConnectionLost) createsUnanswered += 1;
    throw error;
  }
  if (created.status !== 201) {
    tally(errors, `POST /builds: HTTP ${created.status}: ${reasonOf(created.json)}`);
    return;
  }
  createdAnswered += 1;
  try {
    for (const target of created.json.screenshots) {
      const bytes = files[keys.indexOf(target.key)];
      const upload = await call("PUT /uploads", "PUT", target.putUrl, {
        body: bytes,
        contentType: "image/png",
        retry: true,
      });
      if (upload.status !== 200) {
        tally(errors, `PUT /uploads: HTTP ${upload.status}`);
        abandoned += 1;
        return;
      }
    }
    const screenshots = NAMES.map((name, i) => ({ key: keys[i], name: `${name}.png` }));
    const put = await call("PUT /builds/{id}", "PUT", `/v2/builds/${created.json.build.id}`, {
      token: tokens.project,
      json: { screenshots },
      retry: true,
      via: client,
    });
    if (put.status !== 200) {
      tally(errors, `PUT /builds/{id}: HTTP ${put.status}: ${reasonOf(put.json)}`);
      abandoned += 1;
      return;
    }
    acknowledged.set(put.json.build.number, { keys });
    if (onMain) mainCommits.push(commit);
    return put.json.build.number;
  } catch (error) {
    abandoned += 1;
    throw error;
  }
}

async function readFlow(client, kind) {
  const numbers = [...acknowledged.keys()];
  const pick = () => numbers[Math.floor(Math.random() * numbers.length)];
  const project = "/v2/projects/default/default";
  const personal = { token: tokens.personal, via: client };
  const expectOk = (operation, result) => {
    if (result.status !== 200) tally(errors, `${operation}: HTTP ${result.status}`);
  };
  if (kind === 0) {
    const page = 1 + Math.floor(Math.random() * 3);
    expectOk("GET builds", await call("GET builds", "GET", `${project}/builds?perPage=20&page=${page}`, personal));
  } else if (kind === 1 && numbers.length) {
    expectOk("GET build", await call("GET build", "GET", `${project}/builds/${pick()}`, personal));
  } else if (kind === 2 && numbers.length) {
    expectOk("GET diffs", await call("GET diffs", "GET", `${project}/builds/${pick()}/diffs`, personal));
  } else {
    expectOk("GET /healthz", await call("GET /healthz", "GET", "/healthz", { via: client }));
  }
}

/** Whether a client's previous build is still being processed (its status is read for that). */
async function stillProcessing(client, buildNumber) {
  const got = await call("GET build", "GET", `/v2/projects/default/default/builds/${buildNumber}`, {
    token: tokens.personal,
    via: client,
  });
  if (got.status !== 200) tally(errors, `GET build: HTTP ${got.status}`);
  return got.status === 200 && ["pending", "progress"].includes(got.json.status);
}

let running = true;
async function client(id) {
  // Like a CI job that waits for its result, a client pushes its next build once the previous
  // one concluded: the queue then holds at most one build per client, however fast ingestion
  // is compared with the diffs.
  let previous = null;
  for (let round = 0; running; round++) {
    try {
      if (round % 3 === 0 && !(previous && (await stillProcessing(id, previous)))) {
        previous = (await buildFlow(id, round)) ?? previous;
      } else await readFlow(id, Math.floor(Math.random() * 4));
    } catch (error) {
      if (!(error instanceof ConnectionLost)) throw error;
      await sleep(250);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Memory.

const rss = []; // { t, lifetime, mib }
function residentMib(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    return Number(line.split(/\s+/)[1]) / 1024;
  } catch {
    return null;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Growth within each server lifetime long enough to tell: the median of its last quarter of
 * samples against that of its second quarter (the first quarter is warm-up: arenas, caches).
 */
function memoryGrowth() {
  const growth = [];
  for (let life = 1; life <= lifetime; life++) {
    const samples = rss.filter((s) => s.lifetime === life).map((s) => s.mib);
    if (samples.length < 16) continue;
    const quarter = Math.floor(samples.length / 4);
    const settled = median(samples.slice(quarter, 2 * quarter));
    const late = median(samples.slice(3 * quarter));
    growth.push({ life, samples: samples.length, settled, late, grew: late - settled });
  }
  return growth;
}

// ---------------------------------------------------------------------------------------------
// Integrity.

/**
 * Polls every acknowledged build until it concludes. The queue may hold a backlog when the traffic
 * outran the job workers, so it waits as long as builds keep concluding: it gives up after 3
 * minutes without one concluding, or after 30 minutes in all.
 */
async function waitConcluded() {
  const pending = new Set(acknowledged.keys());
  const results = new Map();
  const started = Date.now();
  let lastProgress = started;
  while (pending.size && Date.now() - lastProgress < 180_000 && Date.now() - started < 1_800_000) {
    const before = pending.size;
    for (const buildNumber of [...pending]) {
      const got = await call("GET build", "GET", `/v2/projects/default/default/builds/${buildNumber}`, {
        token: tokens.personal,
        retry: true,
      });
      if (got.status === 200 && !["pending", "progress"].includes(got.json.status)) {
        results.set(buildNumber, got.json);
        pending.delete(buildNumber);
      }
    }
    if (pending.size < before) lastProgress = Date.now();
    if (pending.size) await sleep(1000);
  }
  return { results, pending, waitedMs: Date.now() - started };
}

/**
 * What a build's stats must be, from its baseline's screenshots; undefined when the baseline is
 * a build whose client gave up before its PUT /builds/{id} was answered (its keys are unknown).
 */
function expectedStats(build) {
  const baselineNumber = build.baselineBuild?.number ?? null; // null: no eligible build
  const baseline = baselineNumber === null ? null : acknowledged.get(baselineNumber);
  if (baselineNumber !== null && !baseline) {
    unjudgedExamples.push({ number: build.number, baseline: build.baselineBuild });
    return undefined;
  }
  const stats = { added: 0, changed: 0, unchanged: 0, removed: 0, failure: 0, total: NAMES.length };
  const keys = acknowledged.get(build.number).keys;
  keys.forEach((key, i) => {
    if (!baseline) stats.added += 1;
    else if (baseline.keys[i] === key) stats.unchanged += 1;
    else stats.changed += 1;
  });
  return stats;
}

function wrongStats(results) {
  const wrong = [];
  for (const build of results.values()) {
    const expected = expectedStats(build);
    if (expected === undefined) {
      unjudged += 1;
      continue;
    }
    // A change the project ignores (auto-ignore: recurring changes) counts as ignored.
    const actual = { ...build.stats };
    actual.changed = (actual.changed ?? 0) + (actual.ignored ?? 0);
    const differs = Object.entries(expected).some(([key, value]) => actual[key] !== value);
    if (build.status === "error" || differs) wrong.push({ number: build.number, status: build.status, expected, actual });
  }
  return wrong;
}

function blobFiles(folder) {
  const files = [];
  if (!existsSync(folder)) return files;
  for (const a of readdirSync(folder)) {
    if (a === "tmp") continue;
    for (const b of readdirSync(join(folder, a))) {
      for (const key of readdirSync(join(folder, a, b))) files.push({ key, path: join(folder, a, b, key) });
    }
  }
  return files;
}

/** Database checks once the server is stopped: rows and counters that must agree exactly. */
function databaseChecks() {
  const problems = [];
  const expect = (what, actual, expected) => {
    if (actual !== expected) problems.push(`${what}: ${actual}, expected ${expected}`);
  };
  // Every finalized build has one screenshot row per name and one complete diff per screenshot.
  const numbers = [...acknowledged.keys()].join(",") || "0";
  for (const [buildNumber, screenshots, diffs, complete] of rows(
    `SELECT b.number, (SELECT COUNT(*) FROM screenshots s WHERE s.build_id = b.id),
            (SELECT COUNT(*) FROM screenshot_diffs d WHERE d.build_id = b.id),
            (SELECT COUNT(*) FROM screenshot_diffs d WHERE d.build_id = b.id AND d.job_status = 'complete')
       FROM builds b WHERE b.number IN (${numbers})`,
  )) {
    if (screenshots !== "4" || diffs !== "4" || complete !== "4") {
      problems.push(`build ${buildNumber}: ${screenshots} screenshots, ${diffs} diffs, ${complete} complete`);
    }
  }
  // The flakiness counters: every diff of a reference build counted exactly once — added
  // screenshots and computed pairs (different files); pairs of the same file are not counted.
  const counted = `FROM screenshot_diffs d JOIN builds b ON b.id = d.build_id
      JOIN screenshots h ON h.id = d.head_screenshot_id
      LEFT JOIN screenshots s ON s.id = d.base_screenshot_id
     WHERE b.type = 'reference' AND d.test_id IS NOT NULL AND d.job_status = 'complete'`;
  expect(
    "test builds counters",
    number("SELECT COALESCE(SUM(value), 0) FROM test_stats_builds"),
    number(`SELECT COUNT(*) ${counted} AND (s.id IS NULL OR s.blob_key <> h.blob_key)`),
  );
  expect(
    "test change counters",
    number("SELECT COALESCE(SUM(value), 0) FROM test_stats_fingerprints"),
    number(`SELECT COUNT(*) ${counted} AND d.fingerprint IS NOT NULL`),
  );
  expect("failed jobs", number("SELECT COUNT(*) FROM jobs WHERE status = 'failed'"), 0);
  expect("diffs in error", number("SELECT COUNT(*) FROM screenshot_diffs WHERE job_status = 'error'"), 0);
  return problems;
}

// ---------------------------------------------------------------------------------------------

const started = Date.now();
const elapsed = () => (Date.now() - started) / 1000;
let kills = 0;
let failed = false;
const liveSlots = () => slots.filter((slot) => slot.server && !slot.restarting && !slot.server.exit);
try {
  // The first instance bootstraps the database (and writes bootstrap.json), then the others.
  for (const slot of slots) await startServer(slot);
  readTokens();
  const sampler = setInterval(() => {
    for (const slot of liveSlots()) {
      const mib = residentMib(slot.server.pid);
      if (mib !== null) rss.push({ t: elapsed(), lifetime: slot.server.lifetime, instance: slot.index, mib });
    }
  }, 1000);
  // Every KILL_EVERY seconds one instance (in turn) is killed and started again. Between kills
  // the loop watches for an exit it did not cause: that is recorded with the server's output
  // and exit status, fails the soak, and the instance is started again at once.
  let chaosFailure = null; // a start that failed: the soak stops and reports it
  const chaos = (async () => {
    let next = Date.now() + KILL_EVERY * 1000;
    while (running) {
      for (const slot of slots) {
        if (running && checkUnexpectedExit(slot)) {
          slot.restarting = true;
          await startServer(slot);
          slot.lastKillAt = Date.now();
          slot.restarting = false;
        }
      }
      if (running && Date.now() >= next) {
        const slot = slots[kills % INSTANCES];
        slot.restarting = true;
        if (!checkUnexpectedExit(slot)) await killServer(slot);
        kills += 1;
        if (kills === Number(options["port-thief-after-kill"])) await stealPort(slot);
        await startServer(slot);
        slot.lastKillAt = Date.now();
        slot.restarting = false;
        next = Date.now() + KILL_EVERY * 1000;
      }
      await sleep(200);
    }
  })().catch((error) => {
    chaosFailure = error;
    running = false;
  });
  const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
  const endAt = Date.now() + SECONDS * 1000;
  while (running && Date.now() < endAt) await sleep(200);
  running = false;
  await Promise.all([...clients, chaos]);
  if (chaosFailure) throw chaosFailure;
  clearInterval(sampler);
  const trafficSeconds = elapsed();

  const { results, pending, waitedMs } = await waitConcluded();
  const list = await call("GET builds", "GET", "/v2/projects/default/default/builds?perPage=1", {
    token: tokens.personal,
    retry: true,
  });
  const listed = list.json?.pageInfo?.total ?? -1;
  for (const slot of slots) checkUnexpectedExit(slot);
  for (const slot of slots) {
    if (slot.server.exit) continue;
    slot.server.expected = true;
    slot.server.process.kill("SIGTERM");
    const exit = await slot.server.exited;
    endLifetime(slot.server, `SIGTERM at the end (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`);
    if (exit.code !== 0) {
      unexpectedExits.push({
        lifetime: slot.server.lifetime,
        instance: slot.index,
        status: `exit code ${exit.code} signal ${exit.signal} at SIGTERM`,
        aliveSeconds: (Date.now() - slot.server.startedAt) / 1000,
        output: slot.server.output,
      });
    }
  }

  const wrong = wrongStats(results);
  const problems = databaseChecks();
  // Every blob holds the bytes of its key; every screenshot and mask the database names is there.
  const blobs = bucket
    ? bucket.objects("blobs/").map((name) => ({ key: name.slice("blobs/".length), read: () => bucket.object(name) }))
    : blobFiles(join(dataDir, "blobs")).map((b) => ({ key: b.key, read: () => readFileSync(b.path) }));
  const corrupt = blobs.filter((b) => sha256(b.read()) !== b.key);
  const stored = new Set(blobs.map((b) => b.key));
  const referenced = rows(
    "SELECT blob_key FROM screenshots UNION SELECT mask_key FROM screenshot_diffs WHERE mask_key IS NOT NULL",
  ).map(([key]) => key);
  const missing = referenced.filter((key) => !stored.has(key));
  const temporaries = bucket
    ? bucket.objects("incoming/").length
    : existsSync(join(dataDir, "blobs", "tmp"))
      ? readdirSync(join(dataDir, "blobs", "tmp")).length
      : 0;
  // Builds: every answered creation is listed, and at most the unanswered ones besides.
  const countOk = listed >= createdAnswered && listed <= createdAnswered + createsUnanswered;
  const growth = memoryGrowth();
  const flat = growth.length > 0 && growth.every((g) => g.grew < Math.max(16, g.settled * 0.1));

  const totalServed = Object.values(served).reduce((a, b) => a + b, 0);
  const setup = INSTANCES > 1 ? `${INSTANCES} instances on ${database.name}` : database.name;
  console.log(
    `== soak on ${setup}${bucket ? " + s3rver" : ""}: ${CLIENTS} clients, ${trafficSeconds.toFixed(0)} s of traffic, ` +
      `SIGKILL every ${KILL_EVERY} s${INSTANCES > 1 ? " to one instance in turn" : ""} (${kills} kills)`,
  );
  console.log(`requests served: ${totalServed} (${(totalServed / trafficSeconds).toFixed(0)}/s)`);
  for (const [operation, n] of Object.entries(served).sort()) console.log(`  ${operation.padEnd(22)} ${n}`);
  console.log(`errors by kind:${Object.keys(errors).length ? "" : " none"}`);
  for (const [kind, n] of Object.entries(errors).sort()) console.log(`  ${kind.padEnd(60)} ${n}`);
  console.log("server lifetimes (instance, seconds alive, how it ended, resident memory min / median / max MiB):");
  for (const life of lifetimes) {
    const samples = rss.filter((s) => s.lifetime === life.lifetime).map((s) => s.mib);
    const seconds = ((life.endedAt ?? Date.now()) - life.startedAt) / 1000;
    const memory = samples.length
      ? `${Math.min(...samples).toFixed(0)} / ${median(samples).toFixed(0)} / ${Math.max(...samples).toFixed(0)} (${samples.length} samples)`
      : "no sample";
    console.log(`  ${String(life.lifetime).padStart(2)}: instance ${life.instance}, ${seconds.toFixed(0).padStart(4)} s, ${life.end}; ${memory}`);
  }
  console.log("resident memory (MiB) every 10 s [server lifetime]:");
  const line = rss.filter((_, i) => i % 10 === 0).map((s) => `${s.t.toFixed(0)}s ${s.mib.toFixed(0)}[${s.lifetime}]`);
  for (let i = 0; i < line.length; i += 8) console.log(`  ${line.slice(i, i + 8).join("  ")}`);
  for (const g of growth) {
    console.log(
      `  lifetime ${g.life} (${g.samples} samples): second quarter ${g.settled.toFixed(1)} MiB, ` +
        `last quarter ${g.late.toFixed(1)} MiB (${g.grew >= 0 ? "+" : ""}${g.grew.toFixed(1)})`,
    );
  }
  console.log("integrity:");
  console.log(
    `  builds finalized: ${acknowledged.size}; concluded: ${results.size}; still pending: ${pending.size} ` +
      `(waited ${Math.round(waitedMs / 1000)} s after the traffic for the queue to drain)`,
  );
  console.log(
    `  builds with an error or stats other than their baseline implies: ${wrong.length}` +
      (unjudged ? ` (${unjudged} with a baseline of unknown content not judged)` : ""),
  );
  for (const u of unjudgedExamples.slice(0, 3)) console.log(`    not judged: ${JSON.stringify(u)}`);
  for (const w of wrong.slice(0, 5)) console.log(`    ${JSON.stringify(w)}`);
  console.log(
    `  builds created: ${createdAnswered} answered + ${createsUnanswered} cut by a kill; ` +
      `the server lists ${listed}${countOk ? "" : " (MISMATCH)"}; ${abandoned} abandoned by their client`,
  );
  const shown = problems.slice(0, 20).join("; ") + (problems.length > 20 ? `; … ${problems.length - 20} more` : "");
  console.log(`  database checks (rows per build, counters, failed jobs): ${problems.length ? shown : "exact"}`);
  console.log(
    `  blobs: ${blobs.length} stored, ${corrupt.length} not matching their key, ${missing.length} referenced but missing; ` +
      `${temporaries} temporaries of cut uploads`,
  );
  // A server that stopped by itself, or refused connections while no kill explains it.
  const refusedOutsideKills = Object.entries(errors)
    .filter(([kind]) => kind.includes("ECONNREFUSED") && kind.includes("OUTSIDE"))
    .reduce((sum, [, n]) => sum + n, 0);
  console.log(
    `  servers that exited by themselves: ${unexpectedExits.length}` +
      unexpectedExits.map((u) => ` [${which(u)}: ${u.status} after ${u.aliveSeconds.toFixed(1)} s]`).join("") +
      `; connections refused outside any kill: ${refusedOutsideKills}`,
  );
  for (const u of unexpectedExits) console.log(`--- output of ${which(u)}:\n${u.output.slice(-6000) || "(none)"}\n---`);
  const lost = pending.size + wrong.length + problems.length + corrupt.length + missing.length + (countOk ? 0 : 1);
  const memory = flat ? "flat" : growth.length ? "NOT FLAT" : "NOT MEASURED (no server lifetime of 16 s or more)";
  const down = unexpectedExits.length + (refusedOutsideKills > 0 ? 1 : 0);
  console.log(
    `result: ${lost === 0 ? "no data lost" : `${lost} problems`}, memory ${memory}, ` +
      `${down === 0 ? "no server exit but the chaos loop's" : "A SERVER WENT DOWN BY ITSELF"}`,
  );
  failed = lost > 0 || !flat || acknowledged.size === 0 || down > 0;
} catch (error) {
  console.error(error);
  for (const slot of slots) if (slot.server) console.error(`--- instance ${slot.index}:\n${slot.server.output.slice(-4000)}`);
  failed = true;
} finally {
  for (const slot of slots) if (slot.server && !slot.server.exit) slot.server.process.kill("SIGKILL");
  try {
    database.drop();
  } catch {}
  if (bucket) await bucket.stop();
  if (!process.env.LOUPE_SOAK_KEEP) rmSync(root, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
