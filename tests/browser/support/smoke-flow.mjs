// The smoke flow every browser engine runs: sign in with the link printed at first start, see
// the project's builds (without the tabs, charts and pages of plugins this server does not run),
// open a build uploaded by the real Argos CLI, switch every view mode, search and filter the
// list, approve (the API then
// reads `accepted`), sign out (the API then answers 401). The engines are driven through a small
// adapter: {goto, url, waitFor(js), evaluate(js), click(css), press(key), screenshot()}.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { patternPng } from "../../e2e/support/png.mjs";
import { missingNodeModules } from "../../e2e/support/cli.mjs";
import { LoupeServer, missingPrerequisite, pluginDir } from "../../e2e/support/server.mjs";
import { keepScreenshot } from "./baseline.mjs";
import { Repo } from "./fixture.mjs";
import { createBuild, finalizeBuild, uploadWithCli, waitForConclusion } from "./uploads.mjs";

export const reviewsAvailable = Boolean(pluginDir) && existsSync(join(pluginDir, "reviews.so"));

/**
 * A server with the plugins the smoke flow needs (not deployments nor analytics, whose tabs
 * must then stay hidden) and two builds: main through the API, then a branch uploaded by the
 * real CLI that changes one screenshot, adds one and removes one.
 * Returns {server, buildUrl, signInLink}.
 */
export async function startSmokeServer() {
  const started = Date.now();
  const plugins = ["auth", "builds", "web", ...(reviewsAvailable ? ["reviews"] : [])];
  const server = await LoupeServer.start({ settings: [`plugins.enabled=${plugins.join(",")}`] });
  const signInLink = /(http:\/\/\S+\/_loupe\/login#link=[0-9a-f]{64})/.exec(server.output)?.[1];
  const repo = new Repo();
  const png = (seed, paint = null) => patternPng(seed, { width: 320, height: 200, paint });
  const block = { x: 40, y: 60, width: 120, height: 50 };
  const main = await createBuild(server, { commit: repo.baseCommit, branch: "main" }, { "home.png": png(1), "cart.png": png(2), "gone.png": png(3) });
  await finalizeBuild(server, main);
  await waitForConclusion(server, main.build.number);
  const buildUrl = await uploadWithCli(server, repo, repo.branch, { "home.png": png(1), "cart.png": png(2, block), "new.png": png(4) });
  console.log(`# server and both builds ready in ${Date.now() - started} ms`);
  return { server, buildUrl, signInLink };
}

const countOf = (css) => `document.querySelectorAll(${JSON.stringify(css)}).length`;
const textOf = (css) => `(document.querySelector(${JSON.stringify(css)})?.textContent ?? "").trim()`;
const statusOf = (path) => `fetch(${JSON.stringify(path)}).then((r) => r.status)`;

/** Runs the flow in `browser` (the adapter); `keep(name, png)` keeps a screenshot of a step. */
export async function runSmokeFlow(browser, { server, buildUrl, signInLink }, keep) {
  const started = Date.now();
  assert.ok(signInLink, `no sign-in link in the bootstrap block:\n${server.output}`);
  await browser.goto(signInLink);
  await browser.waitFor(`${countOf(".project-card")} > 0`);
  const home = new URL(await browser.url());
  assert.equal(home.pathname, "/");
  assert.equal(home.hash, "", "the link token leaves the address bar");

  await browser.click(".project-card");
  await browser.waitFor(`${countOf(".builds-table tbody tr")} === 2`);
  assert.match(await browser.evaluate(textOf(".builds-table tbody tr")), /#2\s*Changes detected\s*feature\/checkout/);
  // Without their plugins, the tabs are Builds, Tests and Settings only.
  assert.match(await browser.evaluate(textOf(".section-tabs")), /^Builds\s*Tests\s*Settings$/, "no Deployments or Activity tab without their plugins");
  keep("builds", await browser.screenshot());

  // Without their plugins, the account page has no chart and the sections' URLs say so.
  const origin = new URL(buildUrl).origin;
  await browser.goto(`${origin}/default`);
  await browser.waitFor(`${countOf(".project-card")} > 0`);
  assert.equal(await browser.evaluate(countOf(".chart-svg, .segmented")), 0, "no activity chart without analytics");
  for (const [section, title] of [["deployments", "Deployments are not enabled"], ["activity", "Activity is not enabled"]]) {
    await browser.goto(`${origin}/default/default/${section}`);
    await browser.waitFor(`${textOf(".message h1")} === ${JSON.stringify(title)}`);
  }

  await browser.goto(buildUrl);
  await browser.waitFor(`${countOf('[data-list-state="ready"]')} === 1 && ${countOf(".layer-head")} > 0`);
  const groups = await browser.evaluate(`[...document.querySelectorAll(".group-header")].map((g) => g.innerText.replace(/[▾▸]/g, "").replace(/\\s+/g, " ").trim())`);
  assert.deepEqual(groups, ["Changed 1", "Added 1", "Removed 1", "Unchanged 1"]);
  await browser.waitFor(`[...document.querySelectorAll("img.layer")].every((img) => img.complete && img.naturalWidth > 0)`);
  keep("build-page", await browser.screenshot());

  const checked = textOf('[role="radiogroup"] [aria-checked="true"]');
  for (const [key, label, check] of [
    ["2", "Overlay", `${countOf(".pane")} === 1 && ${countOf(".layer-mask")} === 1`],
    ["3", "Swipe", `${countOf(".swipe-handle")} === 1`],
    ["4", "Onion skin", `${countOf(".pane")} === 1`],
    ["1", "Side by side", `${countOf(".pane")} === 2`],
  ]) {
    await browser.press(key);
    await browser.waitFor(`${checked} === ${JSON.stringify(label)} && ${check}`);
  }
  await browser.click('[role="radio"][title^="Overlay"]');
  await browser.waitFor(`${checked} === "Overlay"`);
  // Fit centres the image in the one pane the mode leaves (it was fitted to half the stage).
  const offCentre = `(() => { const pane = document.querySelector(".pane").getBoundingClientRect(); const img = document.querySelector("img.layer-head").getBoundingClientRect(); return Math.abs(img.left + img.width / 2 - (pane.left + pane.width / 2)); })()`;
  await browser.waitFor(`${offCentre} <= 1`);
  keep("overlay", await browser.screenshot());

  // The list's controls: a search by name (it reaches the collapsed unchanged group too) and a
  // status filter with its count, then Clear.
  const setInput = (css, value, event) =>
    `(() => { const el = document.querySelector(${JSON.stringify(css)}); el.value = ${JSON.stringify(value)}; el.dispatchEvent(new Event(${JSON.stringify(event)}, { bubbles: true })); return true; })()`;
  const rowNames = `[...document.querySelectorAll(".diff-row .diff-name")].map((n) => n.textContent.trim()).join(",")`;
  await browser.evaluate(setInput(".sidebar-filter", "home", "input"));
  await browser.waitFor(`${rowNames} === "home.png"`);
  await browser.evaluate(setInput(".sidebar-filter", "", "input"));
  await browser.waitFor(`${countOf(".diff-row")} === 3`);
  await browser.evaluate(setInput('select[aria-label="Filter by status"]', "changed", "change"));
  await browser.waitFor(`${rowNames} === "cart.png" && ${textOf(".diff-filters-state")}.startsWith("1 of 4")`);
  // The choice goes to the URL after the list shows it (an effect of the render).
  await browser.waitFor(`location.search.includes("status=changed")`);
  await browser.click(".diff-filters-state .link-button");
  await browser.waitFor(`${countOf(".diff-row")} === 3`);

  if (reviewsAvailable) {
    await browser.click(".build-actions .button-primary");
    await browser.waitFor(`${countOf(".build-header .badge-accepted")} === 1`);
    const build = await server.api("GET", "projects/default/default/builds/2", { token: server.personalAccessToken });
    assert.equal(build.body.status, "accepted");
  }

  await browser.click(".top-bar-user .button");
  await browser.waitFor(`[...document.querySelectorAll("h1")].some((h) => h.textContent === "Sign in to Loupe")`);
  assert.equal(await browser.evaluate(statusOf("/v2/projects/default/default/builds")), 401);
  console.log(`# ${browser.name}: the flow took ${Date.now() - started} ms`);
}

/**
 * The smoke flow as a test suite for one engine: `missing()` says why it cannot run here (or
 * null), `launch()` starts the browser and answers the adapter. Screenshots are kept as
 * tests/browser/output/<prefix>-<step>.png.
 */
export function smokeSuite(engine, prefix, { missing, launch }) {
  const reason = missingNodeModules() ?? missingPrerequisite() ?? missing();
  if (reason) console.log(`# ${engine} smoke test skipped: ${reason}`);
  describe(`the review page in ${engine}`, { skip: reason ?? false }, () => {
    let context, browser;
    before(async () => {
      // The browser starts while the builds are made.
      [context, browser] = await Promise.all([startSmokeServer(), launch()]);
      console.log(`# ${browser.name}`);
    });
    after(async () => {
      await browser?.close();
      await context?.server.stop();
    });

    test("sign in, open a build of the CLI, every view mode, search and filter, approve, sign out", async () => {
      await runSmokeFlow(browser, context, (name, png) => keepScreenshot(`${prefix}-${name}`, png));
    });
  });
}
