// Idle footprint: threads and resident memory of a fresh `loupe serve` (the whole product on
// SQLite, the configuration of etc/loupe.properties), a few seconds after it started answering,
// next to peers measured in the same run: the same build with the slow-client budget of before
// (http.max_connections=512: 512 connection threads started at once) and with one connection
// thread per handler thread (http.max_connections=16, as before the slow-client guard). An
// optional other build (LOUPE_IDLE_PEER_BIN) is measured the same way. Node built-ins only; run
// it through run.sh, which finds the build.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    "idle-seconds": { type: "string", default: "3" },
  },
});
const RUNS = Number(options.runs);
const IDLE_MS = Number(options["idle-seconds"]) * 1000;
const TARGET_KB = 30_000; // idle VmRSS under 30 MB
const sourceDir = process.env.LOUPE_SOURCE_DIR;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function status(pid) {
  const fields = {};
  for (const line of readFileSync(`/proc/${pid}/status`, "utf8").split("\n")) {
    const [name, value] = line.split(":");
    if (value !== undefined) fields[name] = value.trim();
  }
  const kb = (name) => Number(fields[name].split(/\s+/)[0]);
  return { threads: Number(fields.Threads), rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile") };
}

/** Starts one server, waits until it answers, lets it idle, reads its figures, stops it. */
async function measure({ bin, pluginDir, settings }) {
  const root = mkdtempSync(join(tmpdir(), "loupe-idle-"));
  const args = [
    "--config", join(sourceDir, "etc/loupe.properties"),
    "--set", "http.port=0",
    "--set", "http.listen_address=127.0.0.1",
    "--set", `data.dir=${join(root, "data")}`,
    "--set", `db.url=sqlite:${join(root, "data/loupe.db")}`,
    "--set", `plugins.path=${pluginDir}`,
    ...settings.flatMap((setting) => ["--set", setting]),
    "serve",
  ];
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (data) => (output += data));
  child.stderr.on("data", (data) => (output += data));
  const exited = new Promise((done) => child.on("exit", done));
  try {
    const deadline = Date.now() + 60_000;
    while (!/loupe: listening on (http:\/\/\S+)/.test(output)) {
      if (child.exitCode !== null) throw new Error(`loupe serve exited:\n${output}`);
      if (Date.now() > deadline) throw new Error(`loupe serve did not start:\n${output}`);
      await sleep(50);
    }
    const url = /loupe: listening on (http:\/\/\S+)/.exec(output)[1].replace(/\/$/, "");
    const health = await fetch(`${url}/healthz`);
    if (!health.ok) throw new Error(`GET /healthz: ${health.status}`);
    await sleep(IDLE_MS);
    return status(child.pid);
  } finally {
    child.kill("SIGTERM");
    await exited;
    rmSync(root, { recursive: true, force: true });
  }
}

const build = { bin: process.env.LOUPE_BIN, pluginDir: process.env.LOUPE_PLUGIN_DIR };
const variants = [
  { name: "this build, defaults", ...build, settings: [] },
  { name: "peer: http.max_connections=512 (the budget before)", ...build, settings: ["http.max_connections=512"] },
  { name: "peer: http.max_connections=16 (before the guard)", ...build, settings: ["http.max_connections=16"] },
];
if (process.env.LOUPE_IDLE_PEER_BIN) {
  variants.push({
    name: `peer build: ${process.env.LOUPE_IDLE_PEER_BIN}`,
    bin: process.env.LOUPE_IDLE_PEER_BIN,
    pluginDir: process.env.LOUPE_IDLE_PEER_PLUGIN_DIR,
    settings: [],
  });
}

const results = variants.map(() => []);
// Interleaved, so a change of load on the machine touches every variant alike.
for (let run = 0; run < RUNS; run++) {
  for (const [i, variant] of variants.entries()) results[i].push(await measure(variant));
}

console.log(`\nLoupe idle footprint: a fresh loupe serve (etc/loupe.properties, SQLite), ${IDLE_MS / 1000} s after its first answer; median of ${RUNS} runs`);
console.log(`${"server".padEnd(56)}${"threads".padStart(8)}${"VmRSS kB".padStart(10)}${"anon kB".padStart(9)}${"file kB".padStart(9)}`);
for (const [i, variant] of variants.entries()) {
  const pick = (key) => median(results[i].map((r) => r[key]));
  console.log(
    `${variant.name.padEnd(56)}${String(pick("threads")).padStart(8)}${String(pick("rss")).padStart(10)}` +
      `${String(pick("anon")).padStart(9)}${String(pick("file")).padStart(9)}`,
  );
}
const rss = median(results[0].map((r) => r.rss));
console.log(`target: idle VmRSS < ${TARGET_KB.toLocaleString("en")} kB (30 MB): ${rss < TARGET_KB ? "ok" : "MISSED"}`);
