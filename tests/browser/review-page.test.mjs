// The review page end to end in Debian's Chromium: sign in with the link printed at first
// start, see the project's deployments (published by the real Argos CLI) and activity charts,
// open a build uploaded by the real Argos CLI, switch every view mode, zoom, navigate by
// keyboard, pin a comment and reply, approve (the API then reads `accepted`), refuse a write
// without its CSRF token, sign out. Each page is compared with its committed baseline by
// `loupe diff`.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { missingNodeModules, node22, runCli } from "../e2e/support/cli.mjs";
import { LoupeServer, loupeBin, missingPrerequisite, pluginDir } from "../e2e/support/server.mjs";
import { compareWithBaseline, keepScreenshot } from "./support/baseline.mjs";
import { launchChromium, missingBrowser, newPage } from "./support/browser.mjs";
import { Repo, renderScreens, screens } from "./support/fixture.mjs";
import { cli, createBuild, finalizeBuild, uploadWithCli, waitForConclusion } from "./support/uploads.mjs";

const available = (plugin) => Boolean(pluginDir) && existsSync(join(pluginDir, `${plugin}.so`));
const reviewsAvailable = available("reviews");
const optionalPlugins = ["reviews", "deployments", "analytics", "notifications", "automation"].filter(available);
const plugins = ["auth", "builds", "web", ...optionalPlugins];
const deploymentsAvailable = optionalPlugins.includes("deployments");
const analyticsAvailable = optionalPlugins.includes("analytics");

function skipReason() {
  const reason = missingNodeModules() ?? missingPrerequisite() ?? missingBrowser();
  if (reason) console.log(`# browser tests skipped: ${reason}`);
  return reason ?? false;
}

const siteHtml = (title) => `<!doctype html><title>${title}</title><h1>${title}</h1>`;

/** The preview of the branch, published by the real CLI; returns the URL it printed. */
async function deployWithCli(server, repo) {
  repo.git("checkout", "-q", repo.branch);
  const dir = join(repo.root, "storybook-static");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "index.html"), siteHtml("Checkout preview"));
  const run = await runCli(cli, repo, ["deploy", dir], { ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken });
  assert.equal(run.code, 0, run.output);
  const url = /Deployed: (\S+)/.exec(run.output)?.[1];
  assert.ok(url, run.output);
  return url;
}

/** The production site of main, straight through the API. */
async function deployThroughApi(server, repo) {
  const bytes = Buffer.from(siteHtml("Checkout production"));
  const hash = createHash("sha256").update(bytes).digest("hex");
  const created = await server.api("POST", "deployments", {
    body: { commit: repo.baseCommit, branch: "main", files: [{ path: "index.html", hash, size: bytes.length, contentType: "text/html" }] },
  });
  assert.equal(created.status, 201, created.text);
  for (const { uploadUrl } of created.body.uploadFiles)
    assert.equal((await fetch(uploadUrl, { method: "PUT", headers: { "Content-Type": "text/html" }, body: bytes })).status, 200);
  const finalized = await server.api("POST", `deployments/${created.body.deploymentId}/finalize`);
  assert.equal(finalized.status, 200, finalized.text);
  assert.equal(finalized.body.environment, "production");
}

function assertLooksLikeBaseline(name, png) {
  const comparison = compareWithBaseline(loupeBin, name, png);
  if (comparison.updated) return;
  assert.ok(!comparison.changed,
    `the ${name} page no longer matches tests/browser/baselines/${name}.png ` +
      `(score ${comparison.result.score}; current ${comparison.current}, mask ${comparison.mask}). ` +
      "If the change is intended, run the suite with LOUPE_UPDATE_BASELINES=1 and commit the new baseline.");
}

describe("the review page in Chromium", { skip: skipReason() }, () => {
  let server, browser, page, repo, buildUrl, signInLink, mainFiles, featureFiles, uploadsStarted, uploadsEnded, slack;
  const slackPosts = [];

  /** `mask`: locators of parts that change from run to run (dates), painted over. */
  const screenshot = (mask = []) => page.screenshot({ animations: "disabled", caret: "hide", mask, maskColor: "#d0d0d8" });
  const apiFromPage = (method, path, headers = {}) =>
    page.evaluate(
      async ([method, path, headers]) => {
        const response = await fetch(path, { method, headers: { "Content-Type": "application/json", ...headers }, body: method === "GET" ? undefined : JSON.stringify({ name: "from-the-page", accountSlug: "default" }) });
        return response.status;
      },
      [method, path, headers],
    );

  before(async () => {
    // Slack cannot be reached here: a stand-in of its Web API takes chat.postMessage.
    slack = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        slackPosts.push({ path: request.url, body: JSON.parse(body || "{}"), authorization: request.headers.authorization });
        response.setHeader("Content-Type", "application/json");
        response.end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise((done) => slack.listen(0, "127.0.0.1", done));
    server = await LoupeServer.start({ node22, settings: [`plugins.enabled=${plugins.join(",")}`,
      `plugins.automation.slack_api_url=http://127.0.0.1:${slack.address().port}/api`, "plugins.automation.slack_bot_token=xoxb-browser"] });
    signInLink = /(http:\/\/\S+\/_loupe\/login#link=[0-9a-f]{64})/.exec(server.output)?.[1];
    browser = await launchChromium();
    repo = new Repo();
    mainFiles = await renderScreens(browser, screens.main);
    featureFiles = await renderScreens(browser, screens.feature);
    uploadsStarted = Date.now();
    await uploadWithCli(server, repo, "main", mainFiles);
    buildUrl = await uploadWithCli(server, repo, repo.branch, featureFiles);
    uploadsEnded = Date.now();
    if (deploymentsAvailable) {
      await deployThroughApi(server, repo);
      await deployWithCli(server, repo);
    }
    page = await newPage(browser);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    slack?.close();
  });

  test("a visitor without a session gets the sign-in page, never the build", async () => {
    await page.goto(buildUrl);
    await page.getByRole("heading", { name: "Sign in to Loupe" }).waitFor();
    assert.match(page.url(), /\/_loupe\/login\?next=%2Fdefault%2Fdefault%2Fbuilds%2F2$/);
    assert.equal(await page.locator(".diff-row").count(), 0);
    assertLooksLikeBaseline("sign-in", await screenshot());
  });

  test("the link printed at first start signs the browser in", async () => {
    assert.ok(signInLink, `no sign-in link in the bootstrap block:\n${server.output}`);
    await page.goto(signInLink);
    await page.getByRole("heading", { name: "Projects" }).waitFor();
    await page.locator(".project-card").first().waitFor();
    keepScreenshot("projects", await screenshot());
    assert.equal(new URL(page.url()).pathname, "/");
    assert.equal(new URL(page.url()).hash, "", "the link token leaves the address bar");
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === "loupe_session");
    assert.ok(session?.httpOnly, "an HttpOnly session cookie");
    assert.equal(session.sameSite, "Lax");
  });

  test("a project's builds: status, branch, commit, filters", async () => {
    await page.getByRole("link", { name: /default/ }).last().click();
    await page.locator(".builds-table tbody tr").nth(1).waitFor();
    assert.equal(await page.locator(".builds-table tbody tr").count(), 2);
    assert.match(await page.locator(".builds-table tbody tr").first().innerText(), /#2\s+Changes detected\s+feature\/checkout\s+[0-9a-f]{7}/);
    assertLooksLikeBaseline("builds", await screenshot());

    await page.getByLabel("Filter by branch").fill("main");
    await page.getByLabel("Filter by branch").press("Enter");
    await page.waitForFunction(() => document.querySelectorAll(".builds-table tbody tr").length === 1);
    assert.match(page.url(), /branch=main/);
    await page.getByLabel("Filter by status").selectOption("no-changes");
    await page.getByText("No build on this page matches the filters.").waitFor();

    // The search asks the API (`search`): a branch's words, or a commit's first characters.
    await page.goto(`${server.url}/default/default`);
    await page.getByLabel("Search").fill("checkout");
    await page.getByLabel("Search").press("Enter");
    await page.waitForFunction(() => document.querySelectorAll(".builds-table tbody tr").length === 1);
    assert.match(page.url(), /search=checkout/);
    assert.match(await page.locator(".builds-table tbody tr").first().innerText(), /^#2/);
    await page.getByLabel("Search").fill(repo.baseCommit.slice(0, 8));
    await page.getByLabel("Search").press("Enter");
    await page.waitForFunction(() => /^#1/.test(document.querySelector(".builds-table tbody tr")?.innerText ?? ""));
    assert.equal(await page.locator(".builds-table tbody tr").count(), 1);
  });

  test("the project's deployments, with links that open each site", { skip: !deploymentsAvailable && "the deployments plugin is not built" }, async () => {
    await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Deployments" }).click();
    const rows = page.locator(".deployments-table tbody tr");
    await rows.nth(1).waitFor();
    assert.equal(new URL(page.url()).pathname, "/default/default/deployments");
    assert.equal(await rows.count(), 2);
    assert.match(await rows.nth(0).innerText(), /Ready\s+Preview\s+feature\/checkout\s+[0-9a-f]{7}/);
    assert.match(await rows.nth(1).innerText(), /Ready\s+Production\s+main\s+[0-9a-f]{7}/);
    assert.deepEqual(await rows.nth(1).locator(".alias").allInnerTexts(), ["production site", "latest of branch"]);
    assertLooksLikeBaseline("deployments", await screenshot([page.locator(".deployments-table td.created")]));

    // "Open" opens the deployment in a new tab: the private project's link lets it in.
    const [site] = await Promise.all([page.context().waitForEvent("page"), rows.nth(0).getByRole("link", { name: /Open deployment/ }).click()]);
    await site.waitForLoadState();
    assert.equal(await site.locator("h1").innerText(), "Checkout preview");
    await site.close();
    const [production] = await Promise.all([page.context().waitForEvent("page"), rows.nth(1).getByRole("link", { name: "production site" }).click()]);
    await production.waitForLoadState();
    assert.equal(await production.locator("h1").innerText(), "Checkout production");
    // A private link on the sites listener: another origin than the review page's.
    assert.match(production.url(), /\/d\/[a-z2-7]{32}\/$/);
    assert.equal(new URL(production.url()).origin, server.sitesUrl);
    await production.close();

    await page.getByLabel("Filter by environment").selectOption("production");
    await page.waitForFunction(() => document.querySelectorAll(".deployments-table tbody tr").length === 1);
    assert.match(page.url(), /environment=production/);
    await page.getByLabel("Filter by branch").fill("nope");
    await page.getByLabel("Filter by branch").press("Enter");
    await page.getByText("No deployment matches the filters.").waitFor();
  });

  test("a deployed site's script cannot act as the signed-in reviewer who opens it", { skip: (!deploymentsAvailable || !reviewsAvailable) && "the deployments or reviews plugin is not built" }, async () => {
    // Any holder of a project token (a CI secret) can publish this page. Its script tries what
    // a same-origin page could do: read the reviewer's session (and its CSRF token) and approve
    // build 2, on the site's own origin and on the review page's.
    const reviewOrigin = new URL(buildUrl).origin;
    const attack = `<!doctype html><title>Release notes</title><h1>Release notes</h1>
<script>
(async () => {
  const attempt = async (base) => {
    try {
      const session = await (await fetch(base + "/_loupe/session", { credentials: "include" })).json();
      const approved = await fetch(base + "/v2/projects/default/default/builds/2/reviews", { method: "POST", credentials: "include",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": String(session.csrfToken) }, body: JSON.stringify({ event: "APPROVE" }) });
      return (base || "own origin") + " " + approved.status;
    } catch (error) {
      return (base || "own origin") + " " + error.name;
    }
  };
  const results = [await attempt(""), await attempt(${JSON.stringify(reviewOrigin)})];
  // The site's own files still load: its data, and a module script.
  const notes = await (await fetch("notes.json")).json();
  await import("./notes.js");
  const out = document.createElement("p");
  out.id = "attack-result";
  out.textContent = "script ran: " + results.join(", ") + "; " + notes.count + " notes, " + window.notesModule;
  document.body.append(out);
})();
</script>`;
    const files = {
      "index.html": [attack, "text/html"],
      "notes.json": [JSON.stringify({ count: 3 }), "application/json"],
      "notes.js": ["window.notesModule = 'module loaded';", "text/javascript"],
    };
    const entries = Object.entries(files).map(([path, [text, contentType]]) => {
      const bytes = Buffer.from(text);
      return { path, bytes, contentType, hash: createHash("sha256").update(bytes).digest("hex") };
    });
    const created = await server.api("POST", "deployments", {
      body: { commit: repo.commit, branch: "release-notes", files: entries.map(({ path, hash, bytes, contentType }) => ({ path, hash, size: bytes.length, contentType })) },
    });
    assert.equal(created.status, 201, created.text);
    for (const { uploadUrl, path } of created.body.uploadFiles) {
      const { bytes, contentType } = entries.find((entry) => entry.path === path);
      assert.equal((await fetch(uploadUrl, { method: "PUT", headers: { "Content-Type": contentType }, body: bytes })).status, 200);
    }
    assert.equal((await server.api("POST", `deployments/${created.body.deploymentId}/finalize`)).status, 200);

    // The signed-in reviewer opens it from the Deployments tab, as they would any preview.
    await page.goto(new URL("/default/default/deployments", buildUrl).href);
    const newest = page.locator(".deployments-table tbody tr").first();
    await newest.getByText("release-notes").waitFor();
    const [site] = await Promise.all([page.context().waitForEvent("page"), newest.getByRole("link", { name: /Open deployment/ }).click()]);
    // The site renders and its script runs...
    await site.locator("#attack-result").waitFor({ timeout: 15_000 });
    assert.equal(await site.locator("h1").innerText(), "Release notes");
    const outcome = await site.locator("#attack-result").innerText();
    keepScreenshot("deployed-site", await site.screenshot({ animations: "disabled", caret: "hide" }));
    await site.close();
    assert.match(outcome, /^script ran: .*; 3 notes, module loaded$/);
    // ...but it runs on an origin of its own, where it can act as nobody: build 2 is unreviewed.
    const build = await server.api("GET", "projects/default/default/builds/2", { token: server.personalAccessToken });
    assert.equal(build.body.status, "changes-detected", `the site's script approved build 2 (${outcome})`);
    assert.notEqual(new URL(site.url()).origin, reviewOrigin, "the site is served from another origin than the review page");
    assert.doesNotMatch(outcome, / 20\d\b/, `a request of the site's script succeeded: ${outcome}`);
  });

  test("the project's activity: builds and screenshots over time, as a chart and a table", { skip: !analyticsAvailable && "the analytics plugin is not built" }, async () => {
    // The charts end with the bucket holding the page's "now". The page runs in its own context
    // whose clock is pinned to the newest build's creation, so the test reads the same bars
    // whatever the day and hour it runs at (also across a midnight between upload and view).
    // Both builds were created between uploadsStarted and uploadsEnded (by the server's clock,
    // which is this machine's). When that window holds a UTC midnight, the server says how many
    // fell on the last day.
    const utcDay = (ms) => Math.floor(ms / 86_400_000);
    let onLastDay = 2;
    if (utcDay(uploadsStarted) !== utcDay(uploadsEnded)) {
      const from = new Date(utcDay(uploadsEnded) * 86_400_000).toISOString();
      const lastDay = await server.api("GET", `accounts/default/analytics?from=${from}&to=${new Date(uploadsEnded).toISOString()}&groupBy=day`, { token: server.personalAccessToken });
      onLastDay = lastDay.body.builds.series.reduce((sum, point) => sum + point.total, 0);
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1, locale: "en-US", timezoneId: "UTC",
      storageState: await page.context().storageState() });
    await context.clock.setFixedTime(new Date(uploadsEnded));
    const activity = await context.newPage();
    try {
      await activity.goto(new URL("/default/default", buildUrl).href);
      await activity.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Activity" }).click();
      const builds = activity.getByRole("img", { name: /^Builds/ });
      await builds.waitFor();
      assert.equal(new URL(activity.url()).pathname, "/default/default/activity");
      // The summary a screen reader reads: two builds, in the last of 30 days (both, unless the
      // two uploads fell on either side of a UTC midnight), both with changes (the first one
      // added every screenshot) and not reviewed yet.
      assert.match(await builds.getAttribute("aria-labelledby"), /-title .*-desc$/);
      const busiest = onLastDay === 2 ? 2 : 1;
      assert.match(await builds.locator("desc").textContent(), new RegExp(`^2 builds in 30 days; the most, ${busiest}, on `));
      assert.match(await activity.getByRole("img", { name: /^Screenshots/ }).locator("desc").textContent(), /^10 screenshots in 30 days/);
      assert.equal(await builds.locator(".chart-bar").count(), 30);
      // The last axis label is the pinned day, as the page writes dates.
      const lastLabel = new Date(uploadsEnded).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
      assert.equal(await builds.locator(".chart-x-labels text").last().textContent(), lastLabel);
      assert.equal(await activity.locator(".chart-legend").first().innerText().then((t) => t.replace(/\s+/g, " ")), "No changes 0 Approved 0 Changes requested 0 To review 2 Other 0");
      // The same figures as a table.
      await activity.getByText("Builds as a table").click();
      const lastRow = activity.locator(".chart-table").first().locator("tbody tr").last();
      assert.deepEqual(await lastRow.locator("td").allInnerTexts(), ["0", "0", "0", String(onLastDay), "0", String(onLastDay)]);
      await activity.getByText("Builds as a table").click();
      // The axis dates are the one part that moves with the calendar: hidden (not painted over,
      // whose box would change size with the labels) before the page is compared.
      await activity.addStyleTag({ content: ".chart-x-labels { visibility: hidden; }" });
      if (onLastDay === 2) {
        assertLooksLikeBaseline("activity", await activity.screenshot({ animations: "disabled", caret: "hide" }));
      } else {
        console.log("# the two builds were made on either side of a UTC midnight: their bars differ from the baseline's");
      }

      await activity.getByRole("radio", { name: "12 weeks" }).click();
      await activity.waitForFunction(() => document.querySelectorAll(".chart-svg")[0]?.querySelectorAll(".chart-bar").length === 12);
      assert.match(activity.url(), /range=12w/);
      await activity.getByRole("radio", { name: "12 months" }).click();
      await activity.waitForFunction(() => document.querySelectorAll(".chart-svg")[0]?.querySelectorAll(".chart-bar").length === 12 && location.search.includes("12m"));

      // The account's page charts every project of the account.
      await activity.getByRole("navigation", { name: "Breadcrumbs" }).getByRole("link", { name: "default" }).click();
      await activity.getByRole("img", { name: /^Builds/ }).waitFor();
      await activity.locator(".project-card").first().waitFor();
      keepScreenshot("account", await activity.screenshot({ animations: "disabled", caret: "hide" }));
    } finally {
      await context.close();
    }
  });

  test("the build URL the CLI printed opens the build page, diffs grouped as Argos groups them", async () => {
    await page.goto(buildUrl);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
    const groups = await page.locator(".group-header").allInnerTexts();
    assert.deepEqual(groups.map((g) => g.replace(/\s+/g, " ").replace(/^[▾▸] /, "").trim()), ["Changed 2", "Added 1", "Removed 1", "Unchanged 2"]);
    assert.equal(await page.locator(".group-header", { hasText: "Unchanged" }).getAttribute("aria-expanded"), "false");
    assert.equal(await page.locator(".diff-row").count(), 4, "unchanged diffs start collapsed");
    // Thumbnails are small images made by the server (through the builds plugin's service).
    const thumbnail = page.locator(".diff-row img").first();
    const thumbnailStatus = await page.evaluate(async (src) => (await fetch(src)).status, await thumbnail.getAttribute("src"));
    if (thumbnailStatus === 503) {
      console.log("# the builds plugin offers no service yet: no thumbnails, no live route");
    } else {
      await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await thumbnail.elementHandle());
      assert.ok((await thumbnail.evaluate((img) => img.naturalWidth)) <= 240);
    }
    await page.locator(".layer-head").first().evaluate((img) => img.decode());
    assertLooksLikeBaseline("build-page", await screenshot());
  });

  test("every view mode, by click and by key", async () => {
    const checked = () => page.locator('[role="radiogroup"] [aria-checked="true"]').innerText();
    await page.keyboard.press("2");
    assert.equal(await checked(), "Overlay");
    keepScreenshot("mode-overlay", await screenshot());
    assert.equal(await page.locator(".pane").count(), 1);
    assert.equal(await page.locator(".layer-mask").count(), 1, "the diff mask over the new screenshot");
    await page.keyboard.press("3");
    assert.equal(await checked(), "Swipe");
    await page.locator(".swipe-handle").waitFor();
    await page.getByLabel("Swipe position").fill("0.25");
    keepScreenshot("mode-swipe", await screenshot());
    await page.keyboard.press("4");
    assert.equal(await checked(), "Onion skin");
    await page.getByLabel("Onion skin opacity of the new screenshot").fill("0.8");
    assert.equal(await page.locator(".layer-head").evaluate((img) => img.style.opacity), "0.8");
    keepScreenshot("mode-onion", await screenshot());
    await page.getByRole("radio", { name: "Side by side" }).click();
    assert.equal(await checked(), "Side by side");
    assert.equal(await page.locator(".pane").count(), 2);
    await page.getByRole("radio", { name: "Overlay" }).click();
    assert.equal(await checked(), "Overlay");
    await page.keyboard.press("1");
  });

  test("zoom and pan stay in sync across both images, 1:1 without resampling", async () => {
    const boxes = () => page.locator(".layer-base, .layer-head").evaluateAll((imgs) => imgs.map((img) => img.style.cssText));
    await page.keyboard.press("+");
    await page.keyboard.press("+");
    let [base, head] = await boxes();
    assert.equal(base.replace(/opacity[^;]*;/, ""), head.replace(/opacity[^;]*;/, ""));
    const pane = page.locator(".pane").last();
    const box = await pane.boundingBox();
    await page.mouse.move(box.x + 100, box.y + 100);
    await page.mouse.down();
    await page.mouse.move(box.x + 160, box.y + 130, { steps: 4 });
    await page.mouse.up();
    [base, head] = await boxes();
    assert.equal(base, head, "a drag on one pane moves both");
    await page.keyboard.press("z");
    const width = await page.locator(".layer-head").evaluate((img) => [img.getBoundingClientRect().width, img.naturalWidth]);
    assert.equal(width[0], width[1], "one image pixel per device pixel");
    await page.keyboard.press("0");
  });

  test("keyboard: j/k and the arrows move between diffs, ? lists the shortcuts", async () => {
    const current = () => page.locator('.diff-row[aria-current="true"] .diff-name').innerText();
    const first = await current();
    await page.keyboard.press("j");
    const second = await current();
    assert.notEqual(second, first);
    await page.keyboard.press("ArrowRight");
    assert.notEqual(await current(), second);
    await page.keyboard.press("ArrowLeft");
    assert.equal(await current(), second);
    await page.keyboard.press("k");
    assert.equal(await current(), first);
    await page.keyboard.press("?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await dialog.waitFor();
    keepScreenshot("shortcuts", await screenshot());
    assert.match(await dialog.innerText(), /approve the build/);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
  });

  test("a search by name finds a screenshot of a collapsed group (unchanged)", async () => {
    await page.goto(buildUrl);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
    assert.equal(await page.locator(".diff-row", { hasText: "login.png" }).count(), 0, "the unchanged group starts collapsed");
    const box = page.getByRole("searchbox", { name: "Filter screenshots by name" });
    await box.fill("login");
    await page.locator(".diff-row", { hasText: "login.png" }).waitFor();
    await box.fill("");
    await page.locator(".diff-row", { hasText: "login.png" }).waitFor({ state: "detached" });
  });

  test("a build page open while the build processes updates itself", async () => {
    const created = await createBuild(server, { commit: repo.commit, branch: repo.branch, referenceCommit: repo.baseCommit }, featureFiles);
    await page.goto(buildUrl.replace(/\/\d+$/, `/${created.build.number}`));
    await page.getByText("This build has no screenshot.").waitFor();
    assert.equal(await page.locator(".build-header .badge").innerText(), "Pending");
    await finalizeBuild(server, created);
    // No reload: the page sees the build conclude and reads its diffs.
    await page.locator(".group-header.group-changed").waitFor({ timeout: 20_000 });
    await page.locator(".build-header .badge-changes-detected").waitFor();
    await page.goto(buildUrl);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
  });

  test("an ARIA snapshot shows as a line diff of its two versions, never as an image", async () => {
    // A text snapshot as the Playwright SDK sends one: uploaded with its type, on a build of its own name.
    const uploadText = async ({ commit, branch, referenceCommit }, text) => {
      const bytes = Buffer.from(text);
      const key = createHash("sha256").update(bytes).digest("hex");
      const created = await server.api("POST", "builds", { body: { commit, branch, referenceCommit, name: "aria", screenshots: [{ key, contentType: "application/yaml" }] } });
      assert.equal(created.status, 201, created.text);
      // The form upload the newer clients use: the signed fields, then the file.
      for (const { postUrl, fields } of created.body.screenshots) {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        form.append("file", new Blob([bytes], { type: "application/yaml" }));
        const posted = await fetch(postUrl, { method: "POST", body: form });
        assert.equal(posted.status, 204, await posted.text());
      }
      const done = await server.api("PUT", `builds/${created.body.build.id}`, { body: { screenshots: [{ name: "checkout.aria.yml", key, contentType: "application/yaml" }] } });
      assert.equal(done.status, 200, done.text);
      return created.body.build;
    };
    const before = '- heading "Checkout" [level=1]\n- button "Pay now"\n- link "Terms"\n';
    const after = '- heading "Checkout" [level=1]\n- button "Pay with card"\n- link "Terms"\n';
    const baseline = await uploadText({ commit: repo.baseCommit, branch: "main" }, before);
    await waitForConclusion(server, baseline.number);
    const build = await uploadText({ commit: repo.commit, branch: repo.branch, referenceCommit: repo.baseCommit }, after);
    await page.goto(buildUrl.replace(/\/\d+$/, `/${build.number}`));
    const diff = page.getByRole("region", { name: "Text diff" });
    await diff.waitFor({ timeout: 20_000 });
    await diff.getByText("1 line removed, 1 line added").waitFor();
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "aria-diff.png") });
    const removed = diff.locator(".line-removed .line-text");
    const added = diff.locator(".line-added .line-text");
    assert.deepEqual(await removed.allInnerTexts(), ['- button "Pay now"']);
    assert.deepEqual(await added.allInnerTexts(), ['- button "Pay with card"']);
    assert.equal(await diff.locator(".line-same").count(), 2);
    assert.equal(await page.locator(".viewer img").count(), 0, "no broken image");
    await page.goto(buildUrl);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
  });

  test("a screenshot and its ARIA snapshot: one row, counted once, the text diff beside the image", async () => {
    // As `argosScreenshot(page, "card", { ariaSnapshot: true })` sends them: the snapshot names
    // the screenshot as its parent.
    // The head build also sends the Playwright trace recorded with the screenshot.
    const trace = Buffer.from("PK\u0005\u0006" + "\u0000".repeat(18), "latin1");
    const traceKey = createHash("sha256").update(trace).digest("hex");
    const upload = async ({ commit, branch, referenceCommit }, png, yaml, withTrace = false) => {
      const files = [
        { name: "card.png", bytes: png, contentType: "image/png", ...(withTrace ? { pwTraceKey: traceKey } : {}) },
        { name: "card.aria.yml", bytes: Buffer.from(yaml), contentType: "application/yaml", parentName: "card.png" },
      ].map((f) => ({ ...f, key: createHash("sha256").update(f.bytes).digest("hex") }));
      const created = await server.api("POST", "builds", {
        body: {
          commit, branch, referenceCommit, name: "aria-pair",
          screenshots: files.map(({ key, contentType }) => ({ key, contentType })),
          ...(withTrace ? { pwTraceKeys: [traceKey] } : {}),
        },
      });
      assert.equal(created.status, 201, created.text);
      const targets = [...created.body.screenshots, ...(created.body.pwTraces ?? [])];
      for (const { key, postUrl, fields } of targets) {
        const file = key === traceKey ? { bytes: trace, contentType: "application/zip" } : files.find((f) => f.key === key);
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        form.append("file", new Blob([file.bytes], { type: file.contentType }));
        assert.equal((await fetch(postUrl, { method: "POST", body: form })).status, 204);
      }
      const done = await server.api("PUT", `builds/${created.body.build.id}`, {
        body: {
          screenshots: files.map(({ name, key, contentType, parentName, pwTraceKey }) =>
            ({ name, key, contentType, ...(parentName ? { parentName } : {}), ...(pwTraceKey ? { pwTraceKey } : {}) })),
        },
      });
      assert.equal(done.status, 200, done.text);
      await waitForConclusion(server, created.body.build.number);
      return created.body.build.number;
    };
    await upload({ commit: repo.baseCommit, branch: "main" }, mainFiles["checkout.png"], '- heading "Card"\n- button "Save"\n');
    const number = await upload({ commit: repo.commit, branch: repo.branch, referenceCommit: repo.baseCommit }, featureFiles["checkout.png"], '- heading "Card"\n- button "Save card"\n', true);
    const stats = (await server.api("GET", `projects/default/default/builds/${number}`)).body.stats;
    assert.equal(stats.changed, 1, JSON.stringify(stats));
    await page.goto(buildUrl.replace(/\/\d+$/, `/${number}`));
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
    assert.deepEqual(await page.locator(".diff-row").allInnerTexts().then((rows) => rows.map((r) => r.split("\n")[0])), ["card.png"], "one row, as the build counts one change");
    const beside = page.getByRole("complementary", { name: "Taken with this screenshot" });
    const text = beside.getByRole("region", { name: "Text diff" });
    await text.getByText("1 line removed, 1 line added").waitFor({ timeout: 20_000 });
    assert.deepEqual(await text.locator(".line-added .line-text").allInnerTexts(), ['- button "Save card"']);
    assert.ok(await page.locator(".viewer-stage img").count() > 0, "the screenshot beside it");
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "aria-beside.png") });
    // The trace opens in the Playwright trace viewer, which reads it from its signed URL.
    const href = await page.getByRole("link", { name: "Trace", exact: true }).getAttribute("href");
    const opened = new URL(href);
    assert.equal(`${opened.origin}${opened.pathname}`, "https://trace.playwright.dev/");
    const traced = await fetch(opened.searchParams.get("trace"), { headers: { Origin: "https://trace.playwright.dev" } });
    assert.equal(traced.status, 200);
    assert.equal(traced.headers.get("access-control-allow-origin"), "*");
    assert.deepEqual(Buffer.from(await traced.arrayBuffer()), trace);
    await page.goto(buildUrl);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
  });

  test("a comment pinned on the diff, and a reply", { skip: !reviewsAvailable && "the reviews plugin is not built" }, async () => {
    await page.keyboard.press("c");
    // A pin goes where the image is: the middle of the new screenshot.
    const image = page.locator(".pane").last().locator("img.layer-head");
    const box = await image.boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.getByRole("textbox", { name: "Comment", exact: true }).fill("The button turned green: intended?");
    await page.getByRole("button", { name: "Comment", exact: true }).click();
    await page.getByRole("button", { name: "Comment thread 1" }).waitFor();
    const thread = page.locator(".thread").first();
    await thread.getByText("The button turned green: intended?").waitFor();
    await thread.getByRole("textbox", { name: "Reply" }).fill("Yes, the new brand colour.");
    await thread.getByRole("button", { name: "Reply" }).click();
    await thread.getByText("Yes, the new brand colour.").waitFor();
    const comments = await server.api("GET", "projects/default/default/builds/2/comments", { token: server.personalAccessToken });
    assert.equal(comments.body.length, 2);
    assert.equal(comments.body[0].anchor.type, "point");
    assert.ok(comments.body[0].anchor.x > 0 && comments.body[0].anchor.x < 1);
    assert.equal(comments.body[1].threadId, comments.body[0].id);
  });

  test("the Reviews tab lists who was asked to review the build", { skip: !reviewsAvailable && "the reviews plugin is not built" }, async () => {
    server.cli(["admin", "user", "create", "--slug", "rita", "--name", "Rita Reviewer"]);
    server.cli(["admin", "member", "add", "--account", "default", "--user", "rita", "--role", "member"]);
    const members = await server.api("GET", "accounts/default/members?perPage=100", { token: server.personalAccessToken });
    const rita = members.body.results.find((member) => member.user.slug === "rita").user;
    const asked = await server.api("POST", "projects/default/default/builds/2/reviewers", { token: server.personalAccessToken, body: { userIds: [rita.id] } });
    assert.equal(asked.status, 200, asked.text);
    await page.getByRole("tab", { name: /Reviews/ }).click();
    const requested = page.getByRole("list", { name: "Requested reviewers" });
    await requested.getByText("Rita Reviewer").waitFor({ timeout: 15_000 });
    await requested.getByText("@rita · awaiting review").waitFor();
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "requested-reviewers.png") });
    await page.getByRole("tab", { name: /Comments/ }).click();
  });

  test("approve with `a`: the build reads accepted through the API, and the next build waiting is one click away", { skip: !reviewsAvailable && "the reviews plugin is not built" }, async () => {
    // Rita asks the admin to review this build and the ARIA one.
    const rita = JSON.stringify(server.admin("token", "create", "--user", "rita", "--account", "default")).match(/arp_[A-Za-z0-9_]{36}/)[0];
    const admin = (await server.api("GET", "/me", { token: server.personalAccessToken })).body;
    const ariaBuild = (await server.api("GET", "projects/default/default/builds?perPage=100", { token: server.personalAccessToken })).body.results
      .find((b) => b.head.branch === repo.branch && b.number > 2 && b.stats?.changed === 1).number;
    for (const number of [2, ariaBuild]) {
      const asked = await server.api("POST", `projects/default/default/builds/${number}/reviewers`, { token: rita, body: { userIds: [admin.id] } });
      assert.equal(asked.status, 200, asked.text);
    }
    const waiting = await server.api("GET", "_loupe/reviews/waiting", { token: server.personalAccessToken });
    assert.deepEqual(waiting.body.builds.map((w) => w.build.number), [2, ariaBuild]);
    assert.equal(waiting.body.builds[0].requestedBy.slug, "rita");
    // Rita's own list: the build she was asked to review earlier, not what she asked of others.
    const ritas = (await server.api("GET", "_loupe/reviews/waiting", { token: rita })).body.builds;
    assert.deepEqual(ritas.map((w) => w.build.number), [2]);

    await page.keyboard.press("a");
    await page.getByRole("status").getByText("Build approved").waitFor();
    const build = await server.api("GET", "projects/default/default/builds/2", { token: server.personalAccessToken });
    assert.equal(build.body.status, "accepted");
    await page.locator(".build-header .badge-accepted").waitFor();
    const next = page.getByRole("link", { name: `Next: default/default #${ariaBuild} →` });
    await next.waitFor();
    const after = await server.api("GET", "_loupe/reviews/waiting", { token: server.personalAccessToken });
    assert.deepEqual(after.body.builds.map((w) => w.build.number), [ariaBuild], "an approval ends the wait");
    await page.goto(server.url);
    await page.getByRole("region", { name: "Waiting for your review" }).getByRole("link", { name: `default/default #${ariaBuild}` }).waitFor();
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "waiting.png") });
    await page.goto(buildUrl);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
  });

  test("a diff's test page: its builds, a comment on the test and Follow; the Tests tab lists it", { skip: !reviewsAvailable && "the reviews plugin is not built" }, async () => {
    await page.locator(".diff-row.selected").waitFor();
    const name = (await page.locator(".diff-title").innerText()).trim();
    await page.getByRole("link", { name: "Test history" }).click();
    await page.getByRole("heading", { name, exact: true }).waitFor();
    const testId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop());
    assert.match(testId, /^DEFAULT-[0-9A-Za-z]+$/);
    // Its history: the check build that changed it, then main's, which was its baseline.
    const history = page.getByRole("list", { name: "Builds" });
    await history.getByRole("link", { name: "Build 2: changed" }).waitFor();
    await history.getByRole("link", { name: "Build 1: added" }).waitFor();
    await history.getByRole("link", { name: "Build 2: changed" }).getByText(/^baseline #1 /).waitFor();
    // Where the newest build's baseline came from: build 1, of main, the auto-approved branch.
    await page.getByLabel("Baseline").waitFor();
    assert.match(await page.getByLabel("Baseline").innerText(), /compared it with build #1 \(main · [0-9a-f]{7}\), a build of main\.$/);

    await page.getByRole("textbox", { name: "Comment on the test" }).fill("This button flips on every theme change");
    await page.getByRole("button", { name: "Comment on the test" }).click();
    await page.locator(".thread").getByText("This button flips on every theme change").waitFor();
    const onTest = await server.api("GET", `projects/default/default/tests/${testId}/comments`, { token: server.personalAccessToken });
    assert.deepEqual(onTest.body.map((c) => [c.testId, c.buildId, c.text]), [[testId, null, "This button flips on every theme change"]]);
    const onBuild = await server.api("GET", "projects/default/default/builds/2/comments", { token: server.personalAccessToken });
    assert.ok(onBuild.body.every((c) => c.testId === null), "the build's comments stay the build's");

    const follow = page.getByRole("button", { name: /^Follow/ });
    const followedBefore = (await follow.getAttribute("aria-pressed")) === "true";
    await follow.click();
    await page.waitForFunction((before) => document.querySelector(".test-head button")?.getAttribute("aria-pressed") === String(!before), followedBefore);
    const followed = await server.api("GET", `_loupe/projects/default/default/tests/${testId}/subscription`, { token: server.personalAccessToken });
    assert.equal(followed.body.subscribed, !followedBefore);
    if (process.env.LOUPE_SCREENSHOT_DIR) {
      await page.evaluate(() => document.querySelector(".content")?.scrollTo(0, 0));
      await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "test-page.png") });
    }

    await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Tests" }).click();
    await page.locator(".tests-table").getByRole("link", { name, exact: true }).waitFor();
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "tests.png"), fullPage: true });
    await page.getByLabel("Test", { exact: true }).fill("no such test name");
    await page.getByLabel("Test", { exact: true }).press("Enter");
    await page.getByText("No test matches the search.").waitFor();
    await page.goto(buildUrl);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
  });

  test("a mask drawn over the changing button: the next build of the branch with that change concludes no-changes", { skip: !reviewsAvailable && "the reviews plugin is not built" }, async () => {
    await page.locator(".diff-row", { hasText: "checkout.png" }).click();
    await page.locator(".diff-title", { hasText: "checkout.png" }).waitFor();
    const diffs = await server.api("GET", "projects/default/default/builds/2/diffs", { token: server.personalAccessToken });
    const checkout = diffs.body.results.find((d) => d.name === "checkout.png");
    assert.equal(checkout.status, "changed");
    // The changed pixels: the red ones of the diff mask, in the screenshot's pixels.
    const changed = await page.evaluate(async (url) => {
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = new OffscreenCanvas(image.naturalWidth, image.naturalHeight);
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0);
      const { data, width, height } = context.getImageData(0, 0, image.naturalWidth, image.naturalHeight);
      let x0 = width, y0 = height, x1 = -1, y1 = -1;
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++)
          if (data[(y * width + x) * 4 + 3] > 0) {
            x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
          }
      return { x0, y0, x1, y1 };
    }, checkout.url);
    assert.ok(changed.x1 >= changed.x0, "the diff mask has changed pixels");
    const head = page.locator(".pane").last().locator("img.layer-head");
    const shown = await head.boundingBox();
    const scale = shown.width / checkout.head.width;
    const at = (x, y) => [shown.x + x * scale, shown.y + y * scale];

    await page.getByRole("button", { name: "Mask an area" }).click();
    await page.mouse.move(...at(changed.x0 - 3, changed.y0 - 3));
    await page.mouse.down();
    await page.mouse.move(...at((changed.x0 + changed.x1) / 2, (changed.y0 + changed.y1) / 2), { steps: 4 });
    await page.mouse.move(...at(changed.x1 + 4, changed.y1 + 4), { steps: 4 });
    await page.mouse.up();
    await page.getByRole("textbox", { name: "Why mask this area" }).fill("the button colour is under test elsewhere");
    await page.getByRole("button", { name: "Mask", exact: true }).click();
    await page.getByRole("status").getByText("Masked: the next builds ignore this area").waitFor();
    await page.locator(".masked-area").first().waitFor();
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "mask-drawn.png") });
    const masks = (await server.api("GET", `projects/default/default/tests/${checkout.test.id}/masks`, { token: server.personalAccessToken })).body.masks;
    assert.equal(masks.length, 1);
    assert.equal(masks[0].note, "the button colour is under test elsewhere");
    assert.ok(masks[0].x <= changed.x0 && masks[0].y <= changed.y0, JSON.stringify([masks[0], changed]));
    assert.ok(masks[0].x + masks[0].width > changed.x1 && masks[0].y + masks[0].height > changed.y1, JSON.stringify([masks[0], changed]));

    // The branch's next build: main's screens with the same new checkout. Unmasked, that is a
    // change; masked, nothing changed.
    const created = await createBuild(server, { commit: repo.commit, branch: repo.branch, referenceCommit: repo.baseCommit },
      { ...mainFiles, "checkout.png": featureFiles["checkout.png"] });
    await finalizeBuild(server, created);
    const concluded = await waitForConclusion(server, created.build.number);
    assert.equal(concluded.status, "no-changes");
    const next = await server.api("GET", `projects/default/default/builds/${created.build.number}/diffs`, { token: server.personalAccessToken });
    assert.equal(next.body.results.find((d) => d.name === "checkout.png").status, "unchanged");
    // Build 2, computed before the mask, keeps its change.
    assert.equal((await server.api("GET", "projects/default/default/builds/2/diffs", { token: server.personalAccessToken })).body.results
      .find((d) => d.name === "checkout.png").status, "changed");
    await page.goto(`${server.url}/default/default/tests/${encodeURIComponent(checkout.test.id)}`);
    await page.getByRole("region", { name: "Masks" }).getByText("the button colour is under test elsewhere").waitFor();
    await page.goto(buildUrl);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
  });

  test("filters inside a build: browser, tag and status with counts, the choice in the URL; one decision for all shown, with undo", { skip: !reviewsAvailable && "the reviews plugin is not built" }, async () => {
    const shot = (name, bytes, browser, tags, file) => ({
      name, bytes, browser, tags, file,
      key: createHash("sha256").update(bytes).digest("hex"),
    });
    const shots = [
      shot("checkout chromium.png", featureFiles["checkout.png"], "chromium", ["smoke"], "tests/checkout.spec.ts"),
      shot("checkout firefox.png", featureFiles["checkout.png"], "firefox", ["smoke"], "tests/checkout.spec.ts"),
      shot("cart chromium.png", mainFiles["cart.png"], "chromium", [], "tests/cart.spec.ts"),
      shot("cart webkit.png", featureFiles["cart.png"], "webkit", ["cart"], "tests/cart.spec.ts"),
    ];
    const created = await server.api("POST", "builds", {
      body: { commit: repo.commit, branch: "filters", referenceCommit: repo.baseCommit, screenshotKeys: [...new Set(shots.map((s) => s.key))] },
    });
    assert.equal(created.status, 201, created.text);
    for (const { key, putUrl } of created.body.screenshots)
      assert.equal((await fetch(putUrl, { method: "PUT", headers: { "Content-Type": "image/png" }, body: shots.find((s) => s.key === key).bytes })).status, 200);
    const finalized = await server.api("PUT", `builds/${created.body.build.id}`, {
      body: {
        screenshots: shots.map(({ name, key, browser, tags, file }) => ({
          name, key,
          metadata: {
            url: "http://localhost/", viewport: { width: 1280, height: 720 }, colorScheme: "light", mediaType: "screen",
            browser: { name: browser, version: "1.0" }, automationLibrary: { name: "@playwright/test", version: "1.50.0" },
            sdk: { name: "@argos-ci/playwright", version: "7.0.0" }, tags,
            test: { title: name, titlePath: [name], location: { file, line: 3, column: 1 } },
          },
        })),
      },
    });
    assert.equal(finalized.status, 200, finalized.text);
    const number = created.body.build.number;
    await waitForConclusion(server, number);

    await page.goto(`${server.url}/default/default/builds/${number}`);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
    const filters = page.getByRole("group", { name: "Filter the screenshots" });
    const browsers = filters.getByRole("combobox", { name: "Filter by browser" });
    assert.deepEqual(await browsers.locator("option").allTextContents(), ["Any browser", "chromium (2)", "firefox (1)", "webkit (1)"]);
    await browsers.selectOption("chromium");
    await page.waitForFunction(() => document.querySelectorAll(".diff-row").length === 2);
    await page.waitForURL(/browser=chromium/);
    await filters.getByRole("combobox", { name: "Filter by tag" }).selectOption("smoke");
    await page.waitForFunction(() => document.querySelectorAll(".diff-row").length === 1);
    await page.locator(".diff-row", { hasText: "checkout chromium.png" }).waitFor();
    await filters.getByText(/^1 of \d+/).waitFor();
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "build-filters.png") });
    // The choice is in the URL: a reload keeps it.
    await page.reload();
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
    await page.waitForFunction(() => document.querySelectorAll(".diff-row").length === 1);
    await filters.getByRole("button", { name: "Clear" }).click();
    await page.locator(".diff-row", { hasText: "checkout firefox.png" }).waitFor();
    await page.locator(".diff-row", { hasText: "cart webkit.png" }).waitFor();
    await page.waitForURL((url) => !url.searchParams.has("browser") && !url.searchParams.has("tag"));

    // One decision for every screenshot shown, undone, then again and sent with the approval.
    await filters.getByRole("combobox", { name: "Filter by tag" }).selectOption("smoke");
    await page.waitForFunction(() => document.querySelectorAll(".diff-row").length === 2);
    await filters.getByRole("button", { name: "✓ OK all 2" }).click();
    await page.getByRole("status").getByText("2 snapshots marked OK, sent with your review").waitFor();
    assert.equal(await page.getByRole("button", { name: "This snapshot is OK" }).getAttribute("aria-pressed"), "true");
    await page.getByRole("status").getByRole("button", { name: "Undo" }).click();
    await page.waitForFunction(() => document.querySelector('[aria-label="This snapshot is OK"]')?.getAttribute("aria-pressed") === "false");
    await filters.getByRole("button", { name: "✓ OK all 2" }).click();
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByRole("status").getByText("Build approved").waitFor();
    const reviews = await server.api("GET", `projects/default/default/builds/${number}/reviews`, { token: server.personalAccessToken });
    const smoke = (await server.api("GET", `projects/default/default/builds/${number}/diffs`, { token: server.personalAccessToken })).body.results
      .filter((d) => d.name.startsWith("checkout ")).map((d) => d.id).sort();
    const sent = reviews.body.find((r) => r.state === "approved").snapshots;
    assert.deepEqual(sent.map((d) => d.id).sort(), smoke);
    assert.ok(sent.every((d) => d.conclusion === "APPROVE"), JSON.stringify(sent));
    await page.goto(buildUrl);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
  });

  test("a change several tests share: ignored on all of them in one action, and marked OK together", { skip: !reviewsAvailable && "the reviews plugin is not built" }, async () => {
    // Two tests whose screenshots changed the same way: one fingerprint group.
    const build = async (commit, branch, referenceCommit, files) => {
      const shots = Object.entries(files).map(([name, bytes]) => ({ name, bytes, key: createHash("sha256").update(bytes).digest("hex") }));
      const created = await server.api("POST", "builds", {
        body: { commit, branch, referenceCommit, name: "groups", screenshotKeys: [...new Set(shots.map((s) => s.key))] },
      });
      assert.equal(created.status, 201, created.text);
      for (const { key, putUrl } of created.body.screenshots)
        assert.equal((await fetch(putUrl, { method: "PUT", headers: { "Content-Type": "image/png" }, body: shots.find((s) => s.key === key).bytes })).status, 200);
      const finalized = await server.api("PUT", `builds/${created.body.build.id}`, { body: { screenshots: shots.map(({ name, key }) => ({ name, key })) } });
      assert.equal(finalized.status, 200, finalized.text);
      await waitForConclusion(server, created.body.build.number);
      return created.body.build.number;
    };
    await build(repo.baseCommit, "main", undefined, { "row one.png": mainFiles["checkout.png"], "row two.png": mainFiles["checkout.png"] });
    const number = await build(repo.commit, "groups", repo.baseCommit, { "row one.png": featureFiles["checkout.png"], "row two.png": featureFiles["checkout.png"] });
    const changeIds = async () => {
      const listed = await server.api("GET", `projects/default/default/builds/${number}/diffs`, { token: server.personalAccessToken });
      return listed.body.results.map((d) => d.change?.id ?? null);
    };

    await page.goto(`${server.url}/default/default/builds/${number}`);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
    await page.locator(".diff-row", { hasText: "row one.png" }).click();
    const same = page.getByRole("group", { name: "All 2 with this change" });
    await same.getByRole("button", { name: "Ignore the change on all 2" }).click();
    await page.getByText("Change ignored on 2 tests: they will stop asking for review").waitFor();
    // Each test's change is ignored, as the Tests pages and the next builds read it.
    const ignored = await server.api("GET", "projects/default/default/ignored-changes", { token: server.personalAccessToken });
    assert.equal(ignored.status, 200, ignored.text);
    const ids = await changeIds();
    assert.equal(ids.length, 2);
    assert.notEqual(ids[0], ids[1], "one change per test");
    const listed = new Set(ignored.body.results.map((c) => c.id));
    for (const id of ids) assert.ok(listed.has(id), `${id} ignored: ${ignored.text}`);
    await same.getByRole("button", { name: "Stop ignoring the change on all 2" }).waitFor();
    await same.getByRole("button", { name: "Stop ignoring the change on all 2" }).click();
    await page.getByText("Change no longer ignored on 2 tests").waitFor();
    await same.getByRole("button", { name: "Mark all 2 with this change OK" }).click();
    await page.getByText("2 snapshots marked OK, sent with your review").waitFor();
  });

  test("the builds list names each build once the project sends builds of several names", async () => {
    await page.goto(`${server.url}/default/default`);
    const table = page.locator("table").first();
    await table.locator("tbody tr").first().waitFor();
    assert.deepEqual((await table.locator("thead th").allInnerTexts()).slice(0, 3), ["Build", "Name", "Status"]);
    const names = await table.locator("tbody tr td:nth-child(2)").allInnerTexts();
    assert.ok(names.includes("aria") && names.includes("default"), names.join(", "));
  });

  test("a write without the session's CSRF token is refused", async () => {
    assert.equal(await apiFromPage("POST", "/v2/projects"), 403);
    assert.equal(await apiFromPage("POST", "/v2/projects", { "X-CSRF-Token": "0".repeat(64) }), 403);
    assert.equal(await apiFromPage("GET", "/v2/projects/default/default/builds"), 200);
  });

  test("the settings page turns kinds of notification mail off, saved at once", { skip: !available("notifications") && "the notifications plugin is not built" }, async () => {
    await page.getByRole("link", { name: /settings/ }).click();
    await page.waitForURL(/\/_loupe\/settings$/);
    await page.getByText("This server sends no mail yet").waitFor();
    await page.getByRole("checkbox", { name: /Review requests/ }).uncheck();
    await page.getByRole("status").getByText("Saved").waitFor();
    const settings = async () => (await server.api("GET", "_loupe/notifications/settings", { token: server.personalAccessToken })).body;
    assert.equal((await settings()).reviewRequests, false);
    assert.equal((await settings()).mentions, true);
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "settings.png") });
    await page.getByRole("checkbox", { name: /All notification mail/ }).uncheck();
    await page.waitForFunction(() => document.querySelector("fieldset.settings-group")?.disabled === true);
    assert.equal((await settings()).enabled, false);
    // What was saved is what the page shows after a reload.
    await page.reload();
    assert.equal(await page.getByRole("checkbox", { name: /All notification mail/ }).isChecked(), false);
    assert.equal(await page.getByRole("checkbox", { name: /Review requests/ }).isChecked(), false);
    await page.getByRole("checkbox", { name: /All notification mail/ }).check();
    await page.getByRole("status").getByText("Saved").waitFor();
    assert.equal((await settings()).enabled, true);
  });

  test("a project's Settings tab makes a new project token and revokes one", async () => {
    await page.goto(`${server.url}/default/default/settings`);
    const section = page.getByRole("region", { name: "Project tokens" });
    const rows = section.getByRole("table", { name: "Project tokens" }).locator("tbody tr");
    await rows.first().waitFor();
    const before = await rows.count();
    await section.getByRole("button", { name: "New project token" }).click();
    const secret = await section.getByRole("textbox", { name: "New project token" }).inputValue();
    assert.match(secret, /^argos_[a-z0-9]{34}$/);
    await page.waitForFunction((n) => document.querySelectorAll("table[aria-label='Project tokens'] tbody tr").length === n, before + 1);
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "project-settings.png") });
    // The new token acts as the project.
    const project = await server.api("GET", "project", { token: secret });
    assert.equal(project.status, 200, project.text);
    // Revoke the new one (the suite's own token stays), after the confirmation.
    const listed = await server.api("GET", "_loupe/projects/default/default/tokens", { token: server.personalAccessToken });
    const { prefix } = listed.body.tokens.find((token) => secret.startsWith(token.prefix));
    await section.getByRole("button", { name: `Revoke ${prefix}` }).click();
    await section.getByRole("button", { name: `Revoke ${prefix}…` }).click();
    await page.waitForFunction((n) => document.querySelectorAll("table[aria-label='Project tokens'] tbody tr").length === n, before);
    assert.equal((await server.api("GET", "project", { token: secret })).status, 401);
  });

  test("a project's Settings tab changes the auto-approved branches: a build on them is approved as it comes", async () => {
    await page.goto(`${server.url}/default/default/settings`);
    const form = page.getByRole("region", { name: "Project settings" });
    const glob = form.getByRole("textbox", { name: "Auto-approved branches" });
    assert.equal(await glob.inputValue(), "main");
    // A refused value changes nothing, and the page says why.
    await form.getByRole("textbox", { name: "Default base branch" }).fill("two words");
    await glob.fill("release/*");
    await form.getByRole("button", { name: "Save changes" }).click();
    await form.getByRole("alert").getByText(/defaultBaseBranch/).waitFor();
    const unchanged = (await server.api("GET", "projects/default/default", { token: server.personalAccessToken })).body;
    assert.equal(unchanged.autoApprovedBranchGlob, "main", "one transaction: nothing saved");
    assert.equal(unchanged.defaultBaseBranch, "main");

    await form.getByRole("textbox", { name: "Default base branch" }).fill("main");
    await form.getByRole("spinbutton", { name: "Keep builds for" }).fill("400");
    await form.getByRole("button", { name: "Save changes" }).click();
    await form.getByRole("status").getByText("Saved").waitFor();
    const saved = (await server.api("GET", "projects/default/default", { token: server.personalAccessToken })).body;
    assert.equal(saved.autoApprovedBranchGlob, "release/*");
    assert.equal(saved.retentionDays, 400);
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "project-settings-form.png"), fullPage: true });

    // The feature's screenshots differ from main's; on a release branch the build is a reference
    // build all the same: approved as it comes.
    repo.git("checkout", "-q", "-b", "release/2.0", repo.branch);
    repo.git("push", "-q", "origin", "release/2.0");
    const url = await uploadWithCli(server, repo, "release/2.0", featureFiles);
    const number = /builds\/(\d+)$/.exec(url)[1];
    const build = (await server.api("GET", `projects/default/default/builds/${number}`, { token: server.personalAccessToken })).body;
    assert.equal(build.head.branch, "release/2.0");
    assert.equal(build.status, "changes-detected", JSON.stringify(build));
    assert.equal(build.notification.github.state, "success", JSON.stringify(build.notification));
    assert.match(build.notification.description, /automatically approved/);
  });

  test("an automation rule made on the Settings tab sends a test message to Slack; its run shows", { skip: !available("automation") && "the automation plugin is not built" }, async () => {
    await page.goto(`${server.url}/default/default/settings`);
    const section = page.getByRole("region", { name: "Automation rules" });
    await section.getByText("No rule yet.").waitFor();
    const definition = { name: "Alerts", events: ["build.completed"], conditions: [], actions: [{ type: "sendSlackMessage", payload: { name: "alerts" } }] };
    await section.getByRole("textbox").fill("{ not json");
    await section.getByRole("button", { name: "Create rule" }).click();
    await section.getByRole("alert").getByText(/not JSON/).waitFor();
    await section.getByRole("textbox").fill(JSON.stringify(definition));
    await section.getByRole("button", { name: "Create rule" }).click();
    const card = section.getByRole("listitem", { name: "Rule Alerts" });
    await card.getByText("No run yet.").waitFor();
    await card.getByRole("button", { name: "Send a test message" }).click();
    await card.getByText(/sendSlackMessage: success/).waitFor({ timeout: 15_000 });
    const post = slackPosts.find((p) => p.path.endsWith("/chat.postMessage"));
    assert.ok(post, JSON.stringify(slackPosts));
    assert.equal(post.body.channel, "alerts");
    assert.equal(post.body.text, "Test message from Loupe about build #1");
    if (process.env.LOUPE_SCREENSHOT_DIR) await section.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "automation.png") });
    const runs = await server.api("GET", "projects/default/default/automation-rules", { token: server.personalAccessToken });
    const rule = runs.body.results.find((r) => r.name === "Alerts");
    const history = await server.api("GET", `_loupe/projects/default/default/automation-rules/${rule.id}/runs`, { token: server.personalAccessToken });
    assert.equal(history.body.results[0].event, "test");
    assert.equal(history.body.results[0].actions[0].status, "success");
    await card.getByRole("button", { name: "Deactivate" }).click();
    await card.getByText("inactive").waitFor();
  });

  test("the team's settings page registers a Slack bot token for its rules: sealed, never shown again, and used", { skip: !available("automation") && "the automation plugin is not built" }, async () => {
    await page.goto(`${server.url}/default/settings`);
    const section = page.getByRole("region", { name: "Chat services" });
    await section.getByText("The team has registered no chat service.").waitFor();
    await section.getByText(/Also configured on the server: Slack/).waitFor();
    await section.getByRole("combobox", { name: "Service" }).selectOption("slack");
    await section.getByRole("textbox", { name: "Bot token" }).fill("xoxb-team-browser-token");
    await section.getByRole("button", { name: "Save" }).click();
    const registered = section.getByRole("list", { name: "Registered chat services" });
    await registered.getByText("Slack bot token").waitFor();
    await registered.getByText("…oken").waitFor();
    assert.equal(await section.getByRole("textbox", { name: "Bot token" }).inputValue(), "", "the form forgets the secret");
    assert.ok(!(await page.content()).includes("xoxb-team-browser-token"), "the token is not shown again");
    if (process.env.LOUPE_SCREENSHOT_DIR) await section.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "chat-services.png") });
    // The team's token wins over the operator's: a rule's test message carries it.
    const created = await server.api("POST", "projects/default/default/automation-rules", {
      token: server.personalAccessToken,
      body: { name: "Team Slack", events: ["build.completed"], actions: [{ type: "sendSlackMessage", payload: { name: "team" } }] },
    });
    assert.equal(created.status, 201, created.text);
    const before = slackPosts.length;
    const tested = await server.api("POST", `_loupe/projects/default/default/automation-rules/${created.body.id}/test`, { token: server.personalAccessToken });
    assert.ok(tested.status < 300, tested.text);
    for (const deadline = Date.now() + 15_000; slackPosts.length === before && Date.now() < deadline;) {
      await new Promise((done) => setTimeout(done, 100));
    }
    const history = await server.api("GET", `_loupe/projects/default/default/automation-rules/${created.body.id}/runs`, { token: server.personalAccessToken });
    assert.equal(slackPosts.at(-1).authorization, "Bearer xoxb-team-browser-token", history.text);
    await section.getByRole("button", { name: "Remove slack bot" }).click();
    await section.getByText("The team has registered no chat service.").waitFor();
    await server.api("POST", `projects/default/default/automation-rules/${created.body.id}/deactivate`, { token: server.personalAccessToken });
  });

  test("the settings page makes a personal access token, shown once, that works until revoked", async () => {
    await page.goto(`${server.url}/_loupe/settings`);
    const section = page.getByRole("region", { name: "Personal access tokens" });
    await section.getByRole("textbox", { name: "Name" }).fill("Docs CI");
    await section.getByRole("combobox", { name: "Expires" }).selectOption({ label: "30 days" });
    await section.getByRole("button", { name: "Create token" }).click();
    const secret = await section.getByRole("textbox", { name: "New token" }).inputValue();
    assert.match(secret, /^arp_[A-Za-z0-9_]{36}$/);
    const row = section.getByRole("row", { name: /Docs CI/ });
    await row.waitFor();
    assert.match(await row.textContent(), new RegExp(`${secret.slice(0, 8)}`));
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "tokens.png"), fullPage: true });
    const me = await server.api("GET", "/me", { token: secret });
    assert.equal(me.status, 200, me.text);
    const listed = await server.api("GET", "_loupe/tokens", { token: secret });
    const mine = listed.body.tokens.find((token) => token.name === "Docs CI");
    assert.deepEqual(mine.accounts, ["admin"]);
    assert.ok(!("token" in mine), "the list never shows a secret");
    const days = (Date.parse(mine.expiresAt) - Date.now()) / 86_400_000;
    assert.ok(days > 29 && days <= 30, `expires in ${days} days`);
    // A token scoped to one account cannot mint one for another account.
    const escalation = await server.api("POST", "_loupe/tokens", { token: secret, body: { name: "wider", accounts: ["default"] } });
    assert.equal(escalation.status, 403, escalation.text);
    assert.equal((await server.api("POST", "_loupe/tokens", { token: secret, body: { name: "" } })).status, 400);

    await section.getByRole("button", { name: "Revoke Docs CI" }).click();
    await section.getByRole("button", { name: "Revoke Docs CI" }).click();  // the confirmation
    await row.waitFor({ state: "detached" });
    assert.equal((await server.api("GET", "/me", { token: secret })).status, 401);
    assert.equal((await server.api("DELETE", `_loupe/tokens/${mine.id}`, { token: server.personalAccessToken })).status, 404);
  });

  test("the settings page lists the browser sessions and signs out of the others", async () => {
    // A second browser: a session opened with the personal access token, outside this page.
    const opened = await fetch(`${server.url}/_loupe/session`, {
      method: "POST",
      headers: { Authorization: `Bearer ${server.personalAccessToken}`, "User-Agent": "Mozilla/5.0 (Windows NT 10.0) Firefox/140.0" },
    });
    assert.equal(opened.status, 201);
    const otherCookie = opened.headers.get("set-cookie").split(";")[0];
    const otherUser = async () => (await (await fetch(`${server.url}/_loupe/session`, { headers: { Cookie: otherCookie } })).json()).user;
    assert.equal((await otherUser())?.slug, "admin");

    await page.goto(`${server.url}/_loupe/settings`);
    const section = page.getByRole("region", { name: "Sessions" });
    await section.getByText("Firefox on Windows").waitFor();
    await section.getByText("This browser").waitFor();
    if (process.env.LOUPE_SCREENSHOT_DIR) await section.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "sessions.png") });
    await section.getByRole("button", { name: "Sign out of all other sessions" }).click();
    await section.getByRole("status").getByText(/Signed out of \d+ other session/).waitFor();
    assert.equal(await otherUser(), null, "the other browser is signed out");
    await section.getByText("Firefox on Windows").waitFor({ state: "detached" });
    // This page's own session goes on.
    assert.equal((await page.evaluate(() => fetch("/_loupe/session").then((r) => r.json()))).user.slug, "admin");
    const listed = await page.evaluate(() => fetch("/_loupe/sessions").then((r) => r.json()));
    assert.deepEqual(listed.sessions.map((s) => s.current), [true]);
  });

  test("the team's settings page demotes a member: their build page loses the Approve button", { skip: !reviewsAvailable && "the reviews plugin is not built" }, async () => {
    server.admin("user", "create", "--slug", "mona", "--name", "Mona Member");
    server.admin("member", "add", "--account", "default", "--user", "mona", "--role", "member");
    // As a contributor, Mona will hold the viewer level on this project.
    server.admin("project", "grant", "--project", "default/default", "--user", "mona", "--level", "viewer");
    const monaPage = await newPage(browser);
    try {
      // The CLI prints the link with the configured port (0 here): keep its fragment.
      await monaPage.goto(`${server.url}/_loupe/login${new URL(server.admin("user", "login-link", "--user", "mona").url).hash}`);
      await monaPage.locator(".project-card").first().waitFor();
      await monaPage.goto(buildUrl);
      await monaPage.getByRole("button", { name: "Approve", exact: true }).waitFor();

      await page.goto(`${server.url}/default`);
      await page.getByRole("link", { name: "Settings", exact: true }).click();
      await page.getByRole("heading", { name: "Default settings" }).waitFor();
      const members = page.getByRole("region", { name: "Members" });
      await members.getByRole("combobox", { name: "Role of Mona Member" }).selectOption("contributor");
      await members.getByRole("status").getByText("Mona Member is now contributor.").waitFor();
      // The last owner cannot step down: the server says so and nothing changes.
      await members.getByRole("combobox", { name: "Role of Admin" }).selectOption("member");
      await members.getByRole("alert").getByText(/last owner/).waitFor();
      assert.equal(await members.getByRole("combobox", { name: "Role of Admin" }).inputValue(), "owner");
      const trail = page.getByRole("region", { name: "Recent changes" });
      await trail.getByText("@mona: role member → contributor").waitFor();
      await trail.getByText(/^Changed default: autoApprovedBranchGlob main → release\/\*/).waitFor();
      if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "team-settings.png"), fullPage: true });

      const listed = await server.api("GET", "accounts/default/members?search=mona", { token: server.personalAccessToken });
      assert.equal(listed.body.results[0].level, "contributor");
      await monaPage.reload();
      await monaPage.getByText("View only").waitFor();
      assert.equal(await monaPage.getByRole("button", { name: "Approve", exact: true }).count(), 0);
      assert.equal(await monaPage.getByRole("button", { name: "This snapshot is OK" }).count(), 0, "no per-snapshot verdict for a viewer");
      const refused = await monaPage.evaluate(async (path) => {
        const session = await fetch("/_loupe/session").then((r) => r.json());
        const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrfToken }, body: JSON.stringify({ event: "APPROVE" }) });
        return response.status;
      }, "/v2/projects/default/default/builds/2/reviews");
      assert.equal(refused, 403, "the server refuses the review too");
      // On the team's page, Mona reads the members; the owner's controls are not offered to her.
      const held = (path) => monaPage.evaluate((p) => fetch(p).then((r) => r.json()), path);
      assert.deepEqual((await held("/_loupe/accounts/default/permissions")).permissions, ["member"]);
      assert.deepEqual((await server.api("GET", "_loupe/accounts/default/permissions", { token: server.personalAccessToken })).body.permissions, ["member", "admin"]);
      await monaPage.goto(`${server.url}/default/settings`);
      const monaMembers = monaPage.getByRole("region", { name: "Members" });
      await monaMembers.getByText("Only the team's owners change roles and remove members.").waitFor();
      await monaMembers.getByText("Mona Member").waitFor();
      assert.equal(await monaMembers.getByRole("combobox").count(), 0);
      assert.equal(await monaPage.getByRole("region", { name: "Recent changes" }).count(), 0);
    } finally {
      await monaPage.context().close();
    }
  });

  test("another person can neither list nor revoke this person's tokens and sessions", async () => {
    server.admin("user", "create", "--slug", "otto", "--name", "Otto Other");
    const otto = JSON.stringify(server.admin("token", "create", "--user", "otto")).match(/arp_[A-Za-z0-9_]{36}/)[0];
    const adminTokens = await server.api("GET", "_loupe/tokens", { token: server.personalAccessToken });
    const adminToken = adminTokens.body.tokens[0];
    assert.ok(adminToken, adminTokens.text);
    const ottoTokens = (await server.api("GET", "_loupe/tokens", { token: otto })).body.tokens;
    assert.ok(ottoTokens.every((token) => token.id !== adminToken.id), "Otto lists only his own tokens");
    assert.equal((await server.api("DELETE", `_loupe/tokens/${adminToken.id}`, { token: otto })).status, 404);
    assert.equal((await server.api("GET", "/me", { token: server.personalAccessToken })).status, 200, "the admin's token still works");

    const session = (await page.evaluate(() => fetch("/_loupe/sessions").then((r) => r.json()))).sessions.find((s) => s.current);
    assert.deepEqual((await server.api("GET", "_loupe/sessions", { token: otto })).body.sessions, []);
    assert.equal((await server.api("DELETE", `_loupe/sessions/${session.id}`, { token: otto })).status, 404);
    const signOut = await server.api("POST", "_loupe/sessions/sign-out-others", { token: otto });
    assert.equal(signOut.status, 200, signOut.text);
    assert.equal((await page.evaluate(() => fetch("/_loupe/session").then((r) => r.json()))).user.slug, "admin", "the admin's session goes on");
  });

  test("a project deleted from its Settings tab, after its name is typed", async () => {
    server.admin("project", "create", "--account", "default", "--name", "scratch");
    await page.goto(`${server.url}/default/scratch/settings`);
    const zone = page.getByRole("region", { name: "Delete" });
    const button = zone.getByRole("button", { name: "Delete scratch" });
    await zone.getByRole("textbox", { name: "Type scratch to confirm" }).fill("scratc");
    assert.ok(await button.isDisabled(), "the button waits for the whole name");
    await zone.getByRole("textbox", { name: "Type scratch to confirm" }).fill("scratch");
    await button.click();
    await page.waitForURL(`${server.url}/default`);
    assert.equal((await server.api("GET", "projects/default/scratch", { token: server.personalAccessToken })).status, 404);
  });

  test("sign out ends the session", async () => {
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("heading", { name: "Sign in to Loupe" }).waitFor();
    assert.equal(await apiFromPage("GET", "/v2/projects/default/default/builds"), 401);
  });
});
