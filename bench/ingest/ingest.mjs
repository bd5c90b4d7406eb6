// Ingestion benchmark: POST /builds with 2,000 keys, 2,000 PNG uploads by 8 concurrent
// clients, PUT /builds/{id} with 2,000 screenshots, against a `loupe serve` started here, and the
// raw write rate of the same bytes with `cat` on the same disk as the ratio to beat.
// Node built-ins only. Run through run.sh (it finds the binary and plugins).
import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { patternPng } from "../../tests/e2e/support/png.mjs";
import { LoupeServer } from "../../tests/e2e/support/server.mjs";

const { values: options } = parseArgs({
  options: {
    screenshots: { type: "string", default: "2000" },
    clients: { type: "string", default: "8" },
    repeats: { type: "string", default: "20" },
    width: { type: "string", default: "64" },
    height: { type: "string", default: "48" },
  },
});
const COUNT = Number(options.screenshots);
const CLIENTS = Number(options.clients);
const REPEATS = Number(options.repeats);

const server = await LoupeServer.start({ postgresUrl: process.env.LOUPE_BENCH_POSTGRES_URL || undefined });
const commit = createHash("sha1").update("bench").digest("hex");

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function timed(method, url, { body, headers = {}, token = server.projectToken } = {}) {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body,
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${method} ${url} -> ${response.status} ${text.slice(0, 500)}`);
  return { ms, json: text ? JSON.parse(text) : null };
}

/** Server-side durations (access log `duration_ms`) of matching requests logged since `mark`. */
function serverDurations(mark, method, pathPattern) {
  return server
    .logLines()
    .slice(mark)
    .filter((line) => /\bhttp\.request\b/.test(line) && line.includes(` method=${method} `))
    .filter((line) => pathPattern.test(/\bpath=(\S+)/.exec(line)?.[1] ?? ""))
    .map((line) => Number(/\bduration_ms=([\d.]+)/.exec(line)?.[1]));
}
const mark = () => server.logLines().length - 1;

const api = (method, path, body) =>
  timed(method, new URL(path, server.apiBaseUrl), {
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });

function screenshotInput(key, i) {
  return {
    key,
    name: `bench/page-${String(i).padStart(4, "0")}.png`,
    contentType: "image/png",
    threshold: null,
    baseName: null,
    parentName: null,
    pwTraceKey: null,
    metadata: {
      url: `https://example.com/page/${i}`,
      viewport: { width: 1280, height: 720 },
      colorScheme: i % 2 ? "dark" : "light",
      mediaType: "screen",
      test: {
        id: `test-${i}`,
        title: `renders page ${i}`,
        titlePath: ["bench", `suite ${i % 20}`, `renders page ${i}`],
        retries: 2,
        retry: 0,
        repeat: 0,
        location: { file: `tests/page-${i % 50}.spec.ts`, line: 10 + (i % 90), column: 5 },
      },
      browser: { name: "chromium", version: "131.0.6778.33" },
      automationLibrary: { name: "@playwright/test", version: "1.49.0" },
      sdk: { name: "@argos-ci/playwright", version: "4.1.0" },
    },
  };
}

try {
  // Distinct PNGs on disk, next to data.dir (same filesystem).
  const pngDir = join(server.root, "pngs");
  mkdirSync(pngDir);
  const pngs = [];
  let totalBytes = 0;
  for (let i = 0; i < COUNT; i++) {
    const bytes = patternPng(`bench-${i}`, { width: Number(options.width), height: Number(options.height) });
    const path = join(pngDir, `${i}.png`);
    writeFileSync(path, bytes);
    pngs.push({ path, bytes, key: createHash("sha256").update(bytes).digest("hex") });
    totalBytes += bytes.length;
  }

  // 1. POST /builds with COUNT new keys, REPEATS times (fresh random keys each time).
  const post = [];
  // Warm-up, not measured: one request of the same size (node's JIT, the server's first use of
  // its connection and allocator).
  await api("POST", "builds", { commit, branch: "bench", screenshotKeys: Array.from({ length: COUNT }, () => randomBytes(32).toString("hex")) });
  const postMark = mark();
  for (let r = 0; r < REPEATS; r++) {
    const keys = Array.from({ length: COUNT }, () => randomBytes(32).toString("hex"));
    const { ms, json } = await api("POST", "builds", { commit, branch: "bench", screenshotKeys: keys });
    if (json.screenshots.length !== COUNT) throw new Error(`POST /builds listed ${json.screenshots.length} uploads, expected ${COUNT}`);
    post.push(ms);
  }

  // 2. The real build: its putUrls, uploaded by CLIENTS concurrent clients.
  const created = await api("POST", "builds", { commit, branch: "bench", screenshotKeys: pngs.map((p) => p.key) });
  post.push(created.ms);
  const postServer = serverDurations(postMark, "POST", /^\/v2\/builds$/);
  const byKey = new Map(pngs.map((p) => [p.key, p]));
  const queue = created.json.screenshots.map(({ key, putUrl }) => ({ url: putUrl, bytes: byKey.get(key).bytes }));
  if (queue.length !== COUNT) throw new Error(`POST /builds listed ${queue.length} uploads, expected ${COUNT}`);
  const uploads = [];
  const uploadMark = mark();
  const uploadStart = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const { ms } = await timed("PUT", item.url, { body: item.bytes, headers: { "Content-Type": "image/png" }, token: null });
        uploads.push(ms);
      }
    }),
  );
  const uploadSeconds = (performance.now() - uploadStart) / 1000;
  const uploadServer = serverDurations(uploadMark, "PUT", /^\/uploads\//);

  // 3. PUT /builds/{id} with COUNT screenshots and full metadata: the real build, then fresh
  //    builds over the same (already stored) keys.
  const screenshots = pngs.map((p, i) => screenshotInput(p.key, i));
  const put = [];
  const putMark = mark();
  const bodyBytes = JSON.stringify({ screenshots }).length;
  put.push((await api("PUT", `builds/${created.json.build.id}`, { screenshots })).ms);
  for (let r = 1; r < REPEATS; r++) {
    const fresh = await api("POST", "builds", { commit, branch: "bench", screenshotKeys: pngs.map((p) => p.key) });
    if (fresh.json.screenshots.length !== 0) throw new Error("held keys were listed for upload again");
    put.push((await api("PUT", `builds/${fresh.json.build.id}`, { screenshots })).ms);
  }
  const putServer = serverDurations(putMark, "PUT", /^\/v2\/builds\/\d+$/);

  // 4. The ratio to beat: cat the same bytes into one file on the same disk, then sync it.
  const catOut = join(server.root, "cat.out");
  const catStart = performance.now();
  const cat = spawnSync("sh", ["-c", 'cat "$@" > "$0" && sync "$0"', catOut, ...pngs.map((p) => p.path)]);
  const catSeconds = (performance.now() - catStart) / 1000;
  if (cat.status !== 0) throw new Error(`cat failed: ${cat.stderr}`);
  if (statSync(catOut).size !== totalBytes) throw new Error("cat wrote a different number of bytes");

  // For reading the figures: the same bytes as one file each, each fsync'ed (what a durable
  // content-addressed store must at least do), from this process.
  const perFileDir = join(server.root, "per-file");
  mkdirSync(perFileDir);
  const perFileStart = performance.now();
  for (const png of pngs) {
    const fd = openSync(join(perFileDir, png.key), "w");
    writeSync(fd, png.bytes);
    fsyncSync(fd);
    closeSync(fd);
  }
  const perFileSeconds = (performance.now() - perFileStart) / 1000;
  rmSync(perFileDir, { recursive: true });

  const mb = totalBytes / 1e6;
  const uploadMBs = mb / uploadSeconds;
  const catMBs = mb / catSeconds;
  const fmt = (n, digits = 1) => n.toFixed(digits).padStart(8);
  const verdict = (ok) => (ok ? "ok" : "MISSED");
  const postP99 = percentile(post, 99);
  const putP99 = percentile(put, 99);
  const ratio = uploadMBs / catMBs;

  let disk = "";
  try {
    disk = execFileSync("df", ["--output=source,fstype", server.dataDir]).toString().split("\n")[1].trim().replace(/\s+/g, " ");
  } catch {}
  console.log(`\nLoupe ingest benchmark — ${server.database}, ${COUNT} screenshots, ${CLIENTS} upload clients, ` +
    `PNGs ${options.width}x${options.height} avg ${(totalBytes / COUNT / 1024).toFixed(1)} KiB (${mb.toFixed(1)} MB), data.dir on ${disk}`);
  console.log("latency: client = request sent to response body read (node fetch); server = access log duration_ms");
  console.log(`${"request".padEnd(44)}${"n".padStart(6)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}` +
    `${"srv p50".padStart(9)}${"srv p99".padStart(9)}  target (client p99)`);
  const row = (name, samples, serverSamples, target = "") =>
    console.log(`${name.padEnd(44)}${String(samples.length).padStart(6)}${fmt(percentile(samples, 50))}${fmt(percentile(samples, 99))}` +
      `${fmt(percentile(serverSamples, 50))}${fmt(percentile(serverSamples, 99))}  ${target}`);
  row(`POST /builds (${COUNT} new keys)`, post, postServer, `< 50 ms: ${verdict(postP99 < 50)}`);
  row(`PUT /uploads/{key} (${CLIENTS} concurrent)`, uploads, uploadServer);
  row(`PUT /builds/{id} (${COUNT} screenshots, ${(bodyBytes / 1e6).toFixed(1)} MB)`, put, putServer, `< 500 ms: ${verdict(putP99 < 500)}`);
  console.log(`uploads: ${(COUNT / uploadSeconds).toFixed(0)} uploads/s, ${uploadMBs.toFixed(2)} MB/s (${uploadSeconds.toFixed(2)} s wall)`);
  console.log(`raw write, cat > one file && sync: ${catMBs.toFixed(2)} MB/s (${catSeconds.toFixed(3)} s)`);
  console.log(`upload / raw write ratio: ${(ratio * 100).toFixed(1)} %  target >= 50 %: ${verdict(ratio >= 0.5)}`);
  console.log(`(reference: one file per image, each fsync'ed, no HTTP: ${(mb / perFileSeconds).toFixed(2)} MB/s, ` +
    `${(COUNT / perFileSeconds).toFixed(0)} files/s)`);
} catch (error) {
  console.error(`${error.stack}\n--- server log (last 20 lines)\n${server.logLines().slice(-20).join("\n")}`);
  process.exitCode = 1;
} finally {
  await server.stop();
}
