// The review page under a large build: N diffs (a reference build on main, then a branch build
// with a tenth of the screenshots changed), opened in Chromium with a cold cache, three times.
import { readdirSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { LoupeServer } from "../../tests/e2e/support/server.mjs";
import { patternPng } from "../../tests/e2e/support/png.mjs";

const root = process.env.LOUPE_SOURCE_DIR;
const { chromium } = await import(pathToFileURL(join(root, "tests/browser/node_modules/playwright-core/index.mjs")).href);
const count = Number(process.argv[2] ?? 5000);
const runs = 3;
const mainCommit = "a".repeat(40);
const branchCommit = "b".repeat(40);

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

async function api(server, method, path, body, token = server.projectToken, attempt = 1) {
  let response;
  try {
    response = await fetch(new URL(path, server.apiBaseUrl), {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // A kept-alive connection the server closed meanwhile: every call here is idempotent.
    if (attempt < 3) return api(server, method, path, body, token, attempt + 1);
    throw error;
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

async function pool(items, width, work) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

async function uploadBuild(server, { commit, branch, files, referenceCommit }) {
  const keys = files.map((f) => f.key);
  const created = await api(server, "POST", "builds", { commit, branch, screenshotKeys: [...new Set(keys)], referenceCommit });
  const bytesByKey = new Map(files.map((f) => [f.key, f.bytes]));
  await pool(created.screenshots, 8, async ({ key, putUrl }) => {
    const response = await fetch(putUrl, { method: "PUT", headers: { "Content-Type": "image/png" }, body: bytesByKey.get(key) });
    if (!response.ok) throw new Error(`upload ${key}: ${response.status}`);
  });
  await api(server, "PUT", `builds/${created.build.id}`, { screenshots: files.map((f) => ({ key: f.key, name: f.name })) });
  for (const deadline = Date.now() + 600_000; ; ) {
    const build = await api(server, "GET", `projects/default/default/builds/${created.build.number}`);
    if (!["pending", "progress"].includes(build.status)) return build;
    if (Date.now() > deadline) throw new Error("processing took over 10 minutes");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function screenshot(name, changed) {
  const bytes = patternPng(name, { width: 160, height: 100, paint: changed ? { x: 20, y: 20, width: 30, height: 20 } : null });
  return { name: `${name}.png`, bytes, key: sha256(bytes) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = await LoupeServer.start({ settings: ["plugins.enabled=auth,builds,web"] });
try {
  const link = /(http:\/\/\S+\/_loupe\/login#link=[0-9a-f]{64})/.exec(server.output)[1];
  const names = Array.from({ length: count }, (_, i) => `page-${String(i).padStart(4, "0")}`);
  const started = Date.now();
  await uploadBuild(server, { commit: mainCommit, branch: "main", files: names.map((n) => screenshot(n, false)) });
  const check = await uploadBuild(server, {
    commit: branchCommit,
    branch: "feature",
    referenceCommit: mainCommit,
    files: names.map((n, i) => screenshot(n, i % 10 === 0)),
  });
  console.log(`# ${count} diffs ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(check.stats)}`);

  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  const first = [];
  const ready = [];
  const scroll = [];
  const search = [];
  const filter = [];
  let code = null;
  // Sign in once (the link works once); each run gets a fresh context (cold cache) with the
  // session cookie.
  const signIn = await browser.newContext();
  const signInPage = await signIn.newPage();
  await signInPage.goto(link);
  await signInPage.getByRole("heading", { name: "Projects" }).waitFor();
  const storageState = await signIn.storageState();
  await signIn.close();
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, storageState });
    const page = await context.newPage();
    // Timestamps (ms since navigation start) of the first diff row and the ready list.
    await page.addInitScript(() => {
      const marks = (window.__bench = {});
      new MutationObserver(() => {
        if (!marks.first && document.querySelector(".diff-row .diff-name")) marks.first = performance.now();
        if (!marks.ready && document.querySelector('[data-list-state="ready"]')) marks.ready = performance.now();
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    await page.goto(check.url);
    await page.waitForFunction(() => window.__bench.ready);
    // Interactive: the list answers a key and scrolls through all rows.
    await page.keyboard.press("j");
    await page.locator('.diff-row[aria-current="true"]').waitFor();
    const marks = await page.evaluate(() => window.__bench);
    first.push(marks.first);
    ready.push(marks.ready);
    scroll.push(await page.evaluate(async () => {
      const list = document.querySelector(".vlist");
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const start = performance.now();
      const steps = 60;
      for (let i = 1; i <= steps; i++) {
        list.scrollTop = (list.scrollHeight * i) / steps;
        await frame();
      }
      return (performance.now() - start) / steps;
    }));
    // Rows mounted during the fast scroll leave out their thumbnails; once it settles, every
    // row shown has one again.
    await page.waitForTimeout(300);
    const thumbs = await page.evaluate(() => [document.querySelectorAll(".diff-row").length, document.querySelectorAll(".diff-row .thumb img").length]);
    if (thumbs[0] !== thumbs[1]) throw new Error(`after the scroll settled, ${thumbs[1]} of ${thumbs[0]} rows show their thumbnail`);
    // Search and filter: from the input to the list showing the answer (the next painted frame).
    // The name searched is a changed screenshot's (unchanged ones sit in a collapsed group).
    search.push(await page.evaluate(async () => {
      const box = document.querySelector('input[placeholder="Filter screenshots"]');
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const type = (text) => {
        box.value = text;
        box.dispatchEvent(new Event("input", { bubbles: true }));
      };
      const start = performance.now();
      type("page-0040");
      let took = Infinity;
      while (performance.now() - start < 5000) {
        await frame();
        const rows = document.querySelectorAll(".diff-row");
        if (rows.length === 1 && rows[0].textContent.includes("page-0040")) {
          took = performance.now() - start;
          break;
        }
      }
      type("");
      return took;
    }));
    await page.waitForFunction(() => document.querySelectorAll(".diff-row").length > 1);
    const filtered = await page.evaluate(async () => {
      const select = document.querySelector('select[aria-label="Filter by status"]');
      if (!select) return null;
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const start = performance.now();
      select.value = select.options[1].value;
      select.dispatchEvent(new Event("change", { bubbles: true }));
      // Answered when the list says how many of the build's screenshots it shows.
      while (!document.querySelector(".diff-filters-state")) {
        await frame();
        if (performance.now() - start > 5000) return Infinity;
      }
      return performance.now() - start;
    });
    if (filtered !== null) filter.push(filtered);
    if (run === 0) {
      const timeline = await page.evaluate(() =>
        performance.getEntriesByType("resource").filter((e) => !e.name.includes("thumbnails")).slice(0, 12)
          .map((e) => `${new URL(e.name).pathname.replace(/^\/v2\/projects\/[^/]+\/[^/]+/, "…")}${new URL(e.name).search} ${e.startTime.toFixed(0)}-${e.responseEnd.toFixed(0)} ms`));
      const firstPage = await page.evaluate(() => performance.getEntriesByName("loupe:first-page")[0]?.startTime);
      console.log(`# first run: first page of diffs in the page's state at ${firstPage?.toFixed(0)} ms`);
      console.log(`# first run, requests (start-end since navigation):\n#   ${timeline.join("\n#   ")}`);
    }
    if (!code) {
      code = await page.evaluate(() => {
        const entries = [performance.getEntriesByType("navigation")[0], ...performance.getEntriesByType("resource")]
          .filter((e) => e.name.includes("/_loupe/assets/") || e.entryType === "navigation");
        return entries.reduce((sum, e) => ({ transfer: sum.transfer + e.transferSize, encoded: sum.encoded + e.encodedBodySize, decoded: sum.decoded + e.decodedBodySize }), { transfer: 0, encoded: 0, decoded: 0 });
      });
    }
    await context.close();
  }
  await browser.close();

  const assets = join(process.env.LOUPE_PLUGIN_DIR, "web-assets", "assets");
  const gzipped = readdirSync(assets)
    .filter((f) => /\.(js|css)$/.test(f))
    .reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f)), { level: 9 }).length, 0);
  const kb = (bytes) => (bytes / 1000).toFixed(1);
  console.log(`build of ${count} diffs, Chromium, 1280x720, cold cache, median of ${runs} runs`);
  console.log(`navigation -> first diff visible:      ${median(first).toFixed(0)} ms   (runs: ${first.map((v) => v.toFixed(0)).join(", ")}; target < 1000 ms: ${(median(first) / 1000).toFixed(2)}x of it)`);
  console.log(`navigation -> list fully interactive:  ${median(ready).toFixed(0)} ms   (runs: ${ready.map((v) => v.toFixed(0)).join(", ")}; target < 2000 ms: ${(median(ready) / 2000).toFixed(2)}x of it)`);
  console.log(`search by name, input -> answer shown:  ${median(search).toFixed(0)} ms   (runs: ${search.map((v) => v.toFixed(0)).join(", ")}; target < 100 ms: ${(median(search) / 100).toFixed(2)}x of it)`);
  if (filter.length) console.log(`status filter, choice -> answer shown:  ${median(filter).toFixed(0)} ms   (runs: ${filter.map((v) => v.toFixed(0)).join(", ")}, target < 100 ms: ${(median(filter) / 100).toFixed(2)}x of it)`);
  console.log(`scrolling the whole list:              ${median(scroll).toFixed(1)} ms per frame (60 jumps; target 60 frames per second, 16.7 ms: ${(median(scroll) / 16.7).toFixed(2)}x of it)`);
  console.log(`page code (HTML + JS + CSS) over the wire: ${kb(code.encoded)} kB compressed, ${kb(code.decoded)} kB uncompressed (gzip -9 of the JS+CSS files: ${kb(gzipped)} kB; target < 150 kB: ${(code.encoded / 150000).toFixed(2)}x of it)`);
} finally {
  await server.stop();
}
