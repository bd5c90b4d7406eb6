// Builds made by the real `@argos-ci/playwright` reporter (7.x, on node 22), reviewed in
// Chromium: a Playwright suite (fixtures/argos-playwright) runs twice from a git checkout, a
// base variant on main and a head variant on a branch, then the review page filters the head
// build by tag, searches it, shows the changed ARIA snapshot as a text diff of both versions
// beside its screenshot, approves the group of two screenshots that changed the same way (read
// back through the API) and moves on to the next build waiting for the reviewer.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { GitRepo, missingNodeModules, node22 } from "../e2e/support/cli.mjs";
import { LoupeServer, missingPrerequisite, pluginDir } from "../e2e/support/server.mjs";
import { launchChromium, missingBrowser, newPage } from "./support/browser.mjs";
import { waitForConclusion } from "./support/uploads.mjs";

const here = import.meta.dirname;
const reviewsBuilt = Boolean(pluginDir) && existsSync(join(pluginDir, "reviews.so"));
const playwrightCli = join(here, "node_modules/@playwright/test/cli.js");
const suiteConfig = join(here, "fixtures/argos-playwright/playwright.config.mjs");

function skipReason() {
  const reason = missingNodeModules() ?? missingPrerequisite() ?? missingBrowser() ??
    (reviewsBuilt ? null : "the reviews plugin is not built") ??
    (existsSync(playwrightCli) && existsSync(join(here, "node_modules/@argos-ci/playwright")) ? null : `node_modules incomplete (run npm ci in ${here})`);
  if (reason) console.log(`# reporter tests skipped: ${reason}`);
  return reason ?? false;
}

/** Runs the Playwright suite in `variant` as CI would on `branch` at `commit`; returns the build number. */
function runSuite(server, repo, { variant, branch, commit, buildName }) {
  const env = repo.env({
    ARGOS_API_BASE_URL: server.apiBaseUrl,
    ARGOS_TOKEN: server.projectToken,
    ARGOS_BRANCH: branch,
    ARGOS_COMMIT: commit,
    ...(buildName ? { ARGOS_BUILD_NAME: buildName } : {}),
    LOUPE_SHOP_VARIANT: variant,
    LOUPE_PW_OUTPUT: join(repo.tmp, `pw-${variant}-${buildName ?? "default"}`),
  });
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [playwrightCli, "test", "--config", suiteConfig], { cwd: repo.root, env });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const url = /\/builds\/(\d+)\b/.exec(output);
      if (code !== 0 || !url) reject(new Error(`the Playwright suite (${variant}) exited with ${code}:\n${output}`));
      else resolve(Number(url[1]));
    });
  });
}

describe("builds reported by @argos-ci/playwright, reviewed in Chromium", { skip: skipReason() }, () => {
  let server, browser, page, repo, headBuild, otherBuild;
  const rows = () => page.locator(".diff-row").allInnerTexts().then((texts) => texts.map((t) => t.split("\n")[0]));
  const openBuild = async (number, query = "") => {
    await page.goto(`${server.url}/default/default/builds/${number}${query}`);
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
  };

  before(async () => {
    server = await LoupeServer.start({ node22, settings: ["plugins.enabled=auth,builds,web,reviews"] });
    repo = new GitRepo({ branch: "summer-sale" });
    const base = await runSuite(server, repo, { variant: "base", branch: "main", commit: repo.baseCommit });
    await waitForConclusion(server, base);
    headBuild = await runSuite(server, repo, { variant: "head", branch: repo.branch, commit: repo.commit });
    await waitForConclusion(server, headBuild);
    // A second suite's build of the same commit: the next one waiting for the reviewer.
    otherBuild = await runSuite(server, repo, { variant: "head", branch: repo.branch, commit: repo.commit, buildName: "mobile" });
    await waitForConclusion(server, otherBuild);
    browser = await launchChromium();
    page = await newPage(browser);
    const link = /(http:\/\/\S+\/_loupe\/login#link=[0-9a-f]{64})/.exec(server.output)[1];
    await page.goto(link);
    await page.getByRole("heading", { name: "Projects" }).waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("the reporter's build: screenshots with their ARIA snapshots counted once, tags and test metadata kept", async () => {
    const build = (await server.api("GET", `projects/default/default/builds/${headBuild}`, { token: server.personalAccessToken })).body;
    assert.equal(build.conclusion, "changes-detected");
    // catalog (its ARIA snapshot beside it, not counted), both banners; the footer is unchanged;
    // the standalone ARIA snapshot of the navigation did not change.
    assert.equal(build.stats.changed, 3, JSON.stringify(build.stats));
    const diffs = (await server.api("GET", `projects/default/default/builds/${headBuild}/diffs`, { token: server.personalAccessToken })).body.results;
    const catalog = diffs.find((d) => d.name.endsWith("catalog.png"));
    assert.ok(catalog, diffs.map((d) => d.name).join(", "));
    assert.deepEqual(catalog.head.metadata.tags, ["shop"]);
    assert.equal(catalog.head.metadata.test.title, "catalog");
    assert.deepEqual(catalog.head.metadata.test.tags, ["@catalog"]);
    const aria = diffs.find((d) => d.parentName === catalog.name);
    assert.ok(aria, `an ARIA snapshot names ${catalog.name} as its parent`);
    assert.match(aria.head.contentType, /yaml/);
  });

  test("filter by tag, search by name, and the ARIA text diff of both versions beside the screenshot", async () => {
    await openBuild(headBuild);
    const filters = page.getByRole("group", { name: "Filter the screenshots" });
    const tags = filters.getByRole("combobox", { name: "Filter by tag" });
    const options = await tags.locator("option").allTextContents();
    assert.ok(options.includes("banner (2)"), options.join(" | "));
    await tags.selectOption("banner");
    await page.waitForURL(/tag=banner/);
    await page.waitForFunction(() => document.querySelectorAll(".diff-row").length === 2, null, { timeout: 5000 }).catch(async () => {
      assert.fail(`rows shown for tag=banner: ${(await rows()).join(", ")}`);
    });
    assert.deepEqual((await rows()).map((name) => name.replace(/^.*\//, "")).sort(), ["banner-members.png", "banner-spring.png"]);
    await filters.getByRole("button", { name: "Clear" }).click();

    // "catalog" finds the screenshot and the navigation's snapshot (unchanged, in a collapsed
    // group); "catalog.png" the screenshot alone.
    await page.keyboard.press("/");  // the search box's key
    await page.keyboard.type("catalog");
    await page.waitForFunction(() => document.querySelectorAll(".diff-row").length === 2);
    assert.deepEqual((await rows()).map((name) => name.replace(/^.*\//, "")), ["catalog.png", "catalog-navigation.aria.yml"]);
    await page.getByPlaceholder("Filter screenshots").fill("catalog.png");
    await page.waitForFunction(() => document.querySelectorAll(".diff-row").length === 1);
    await page.locator(".diff-row", { hasText: "catalog.png" }).click();
    const text = page.getByRole("complementary", { name: "Taken with this screenshot" }).getByRole("region", { name: "Text diff" });
    await text.getByText("1 line removed, 1 line added").waitFor({ timeout: 20_000 });
    const lines = async (kind) => (await text.locator(`.line-${kind} .line-text`).allInnerTexts()).map((line) => line.trim());
    assert.deepEqual(await lines("removed"), ['- heading "Spring catalog" [level=1]']);
    assert.deepEqual(await lines("added"), ['- heading "Summer catalog" [level=1]']);
    assert.ok(await page.locator(".viewer-stage img").count() > 0, "the screenshot beside its snapshot");
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "reporter-aria.png") });
    await page.getByPlaceholder("Filter screenshots").fill("");
  });

  test("the two banners that changed the same way are approved together; the next waiting build follows", async () => {
    const admin = (await server.api("GET", "/me", { token: server.personalAccessToken })).body;
    server.admin("user", "create", "--slug", "rita", "--name", "Rita Requester");
    server.admin("member", "add", "--account", "default", "--user", "rita", "--role", "member");
    const rita = JSON.stringify(server.admin("token", "create", "--user", "rita", "--account", "default")).match(/arp_[A-Za-z0-9_]{36}/)[0];
    for (const number of [headBuild, otherBuild]) {
      const asked = await server.api("POST", `projects/default/default/builds/${number}/reviewers`, { token: rita, body: { userIds: [admin.id] } });
      assert.equal(asked.status, 200, asked.text);
    }
    await openBuild(headBuild);
    await page.locator(".diff-row", { hasText: "banner-spring.png" }).click();
    const same = page.getByRole("group", { name: "All 2 with this change" });
    await same.getByRole("button", { name: "Mark all 2 with this change OK" }).click();
    await page.getByText("2 snapshots marked OK, sent with your review").waitFor();
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByRole("status").getByText("Build approved").waitFor();

    const reviews = (await server.api("GET", `projects/default/default/builds/${headBuild}/reviews`, { token: server.personalAccessToken })).body;
    const banners = (await server.api("GET", `projects/default/default/builds/${headBuild}/diffs`, { token: server.personalAccessToken })).body.results
      .filter((d) => /banner-/.test(d.name)).map((d) => d.id).sort();
    const sent = reviews.find((r) => r.state === "approved").snapshots;
    assert.deepEqual(sent.map((d) => d.id).sort(), banners);
    assert.ok(sent.every((d) => d.conclusion === "APPROVE"), JSON.stringify(sent));

    await page.getByRole("link", { name: `Next: default/default #${otherBuild} →` }).waitFor();
    await page.keyboard.press("n");  // the next waiting build's key
    await page.waitForURL(new RegExp(`/builds/${otherBuild}$`));
    await page.locator('[data-list-state="ready"]').waitFor({ state: "attached" });
    await page.locator(".diff-row", { hasText: "catalog.png" }).waitFor();
  });
});
