// The media pages in Chromium: a before/after pair and a video (recorded in the browser by
// MediaRecorder, a real WebM) uploaded through the API, the project's Media tab listing them as
// cards, a media's page with its before/after slider and versions, a comment pinned on the
// picture and one on a moment of the video (a click on its pin goes back there), the video
// playing from the media listener (another origin than the review page's), and a public media's
// share page there, playing its video; and an MP4 recorded by Chromium, uploaded by the latest
// official CLI (`argos media upload`), checked as a video from its bytes.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { writeFileSync } from "node:fs";
import { clis, describeRun, GitRepo, missingNodeModules, node22, runCli } from "../e2e/support/cli.mjs";
import { encodePng } from "../e2e/support/png.mjs";
import { LoupeServer, missingPrerequisite } from "../e2e/support/server.mjs";
import { launchChromium, missingBrowser, newPage } from "./support/browser.mjs";

/** Polls `check` (20 s at most) until it holds. */
async function until(check, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms: ${check}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

const skip = missingPrerequisite() ?? missingNodeModules() ?? missingBrowser();

/** A 160×100 picture: a card whose button is `rgb`. */
function cardPng(rgb) {
  const width = 160;
  const height = 100;
  const pixels = Buffer.alloc(width * height * 3, 0xf4);
  for (let y = 60; y < 80; y++) {
    for (let x = 20; x < 80; x++) pixels.set(rgb, (y * width + x) * 3);
  }
  return encodePng(width, height, pixels);
}

describe("the media pages in Chromium", { skip: skip ?? false }, () => {
  let server;
  let browser;
  let page;

  /** Declares, uploads (the signed form) and finalizes one file; answers the media. */
  const upload = async (bytes, fields) => {
    const hash = createHash("sha256").update(bytes).digest("hex");
    const declared = await server.api("POST", "media", { body: { size: bytes.length, hash, branch: "checkout", ...fields } });
    assert.equal(declared.status, 201, declared.text);
    if (declared.body.upload) {
      const form = new FormData();
      for (const [name, value] of Object.entries(declared.body.upload.fields)) form.append(name, value);
      form.append("file", new Blob([bytes], { type: fields.contentType }));
      assert.ok((await fetch(declared.body.upload.url, { method: "POST", body: form })).ok);
    }
    const finalized = await server.api("POST", `media/${declared.body.media.id}/finalize`);
    assert.equal(finalized.status, 200, finalized.text);
    return finalized.body;
  };

  before(async () => {
    server = await LoupeServer.start({ node22, settings: ["plugins.enabled=auth,builds,reviews,web,media"] });
    browser = await launchChromium();
    page = await newPage(browser);
    const link = /(http:\/\/\S+\/_loupe\/login#link=[0-9a-f]{64})/.exec(server.output)[1];
    await page.goto(link);
    await page.waitForURL((url) => !url.pathname.startsWith("/_loupe/login"));
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("the Media tab lists a before/after pair and a video; a media's page slides between the two and plays the video", async () => {
    await upload(cardPng([47, 86, 216]), { name: "checkout.png", state: "before", contentType: "image/png", description: "The pay button" });
    await upload(cardPng([192, 53, 43]), { name: "checkout.png", state: "after", contentType: "image/png" });
    const newer = await upload(cardPng([29, 122, 76]), { name: "checkout.png", state: "after", contentType: "image/png" });
    assert.equal(newer.version, 2);

    // A real WebM: two seconds of a canvas recorded by Chromium's MediaRecorder.
    const webm = Buffer.from(await page.evaluate(async () => {
      const canvas = Object.assign(document.createElement("canvas"), { width: 160, height: 90 });
      const context = canvas.getContext("2d");
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: "video/webm" });
      const chunks = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((done) => (recorder.onstop = done));
      recorder.start(100);
      for (let frame = 0; frame < 20; frame++) {
        context.fillStyle = `hsl(${frame * 18}, 70%, 50%)`;
        context.fillRect(0, 0, 160, 90);
        await new Promise((done) => setTimeout(done, 50));
      }
      recorder.stop();
      await stopped;
      return [...new Uint8Array(await new Blob(chunks).arrayBuffer())];
    }));
    const video = await upload(webm, { name: "checkout-flow.webm", contentType: "video/webm" });
    assert.equal(video.contentType, "video/webm");

    // An MP4, recorded the same way, uploaded by the official CLI as a developer would.
    const mp4 = Buffer.from(await page.evaluate(async () => {
      const canvas = Object.assign(document.createElement("canvas"), { width: 160, height: 90 });
      const context = canvas.getContext("2d");
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: "video/mp4" });
      const chunks = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((done) => (recorder.onstop = done));
      recorder.start(100);
      for (let frame = 0; frame < 10; frame++) {
        context.fillStyle = `hsl(${frame * 30}, 60%, 45%)`;
        context.fillRect(0, 0, 160, 90);
        await new Promise((done) => setTimeout(done, 50));
      }
      recorder.stop();
      await stopped;
      return [...new Uint8Array(await new Blob(chunks).arrayBuffer())];
    }));
    assert.equal(mp4.subarray(4, 8).toString("latin1"), "ftyp", "Chromium recorded an MP4");
    const repo = new GitRepo({ branch: "checkout" });
    writeFileSync(join(repo.root, "checkout-recording.mp4"), mp4);
    const cli = clis.find((c) => c.name === "latest");
    const run = await runCli(cli, repo, ["media", "upload", "checkout-recording.mp4", "--branch", "checkout", "--json"],
      { ARGOS_TOKEN: server.projectToken, ARGOS_API_BASE_URL: server.apiBaseUrl });
    assert.equal(run.code, 0, describeRun(cli, run));
    const [recording] = JSON.parse(run.stdout);
    assert.equal(recording.contentType, "video/mp4");
    assert.equal(recording.status, "ready");
    assert.equal(recording.sizeBytes, mp4.length);
    assert.match(recording.markdown, /^\[\u25B6 checkout-recording\.mp4\]\(/, "a video embeds as a play link");

    await page.goto(`${server.url}/default/default/media`);
    const cards = page.getByRole("list", { name: "Media" }).locator(".media-card");
    await cards.nth(1).waitFor();
    await cards.nth(2).waitFor();
    assert.equal(await cards.count(), 3, "the pair is one card, each video another");
    const pair = cards.filter({ hasText: "checkout.png" });
    assert.deepEqual(await pair.locator(".tag").allInnerTexts(), ["Before", "After"]);
    await page.waitForFunction(() => [...document.querySelectorAll(".media-card img")].every((img) => img.complete && img.naturalWidth === 160));
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "media-list.png") });

    // The kind filter goes through the API.
    await until(() => page.evaluate(() => [...document.querySelectorAll(".media-card img")].every((img) => img.complete && img.naturalWidth === 160)));
    await page.getByLabel("Filter by kind").selectOption("video");
    await until(async () => /type=video/.test(page.url()) && (await cards.count()) === 2);
    await page.getByLabel("Filter by kind").selectOption("");
    await cards.nth(2).waitFor();

    // The pair's page: a slider over the two sides, the newer "after".
    await pair.getByRole("link", { name: "checkout.png (after)" }).click();
    const slider = page.getByRole("figure", { name: "Before and after" });
    await slider.waitFor();
    const top = slider.locator("img.before-after-top");
    assert.equal(await top.getAttribute("src"), newer.fileUrl);
    await page.getByLabel("Before and after split").fill("20");
    assert.match(await top.getAttribute("style"), /inset\(0(px)? 0(px)? 0(px)? 20%\)/);
    assert.deepEqual(await page.getByRole("list", { name: "Versions" }).getByRole("button").allInnerTexts(), ["Version 2", "Version 1"]);
    assert.equal(await page.getByLabel("Markdown").inputValue(), newer.markdown);
    // A comment pinned on a spot of the picture: placed where the click fell, on the newest version.
    await page.getByRole("button", { name: "Pin a comment" }).click();
    const picture = page.locator(".pin-stage img.media-file");
    const box = await picture.boundingBox();
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.7);
    await page.getByLabel("Comment on this spot").fill("The pay button moved down");
    await page.getByRole("button", { name: "Comment on this spot" }).click();
    const pin = page.getByRole("button", { name: "Comment thread 1" });
    await pin.waitFor();
    const [pinned] = (await server.api("GET", `media/${newer.id}/comments`, { token: server.personalAccessToken })).body;
    assert.equal(pinned.text, "The pay button moved down");
    assert.equal(pinned.anchor.type, "point");
    assert.ok(Math.abs(pinned.anchor.x - 0.3) < 0.02 && Math.abs(pinned.anchor.y - 0.7) < 0.02, JSON.stringify(pinned.anchor));
    assert.equal(pinned.anchor.time, undefined, "a picture's pin has no time");
    assert.equal(pinned.mediaVersionId, (await server.api("GET", `media/${newer.id}/versions`)).body[0].id);
    const pinBox = await pin.boundingBox();
    assert.ok(Math.abs(pinBox.x + pinBox.width / 2 - (box.x + box.width * 0.3)) < 3, "the pin sits where the click fell");
    await page.getByRole("region", { name: "Comments" }).getByText("The pay button moved down").waitFor();
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "media-page.png") });
    // An older version shows alone.
    await page.getByRole("button", { name: "Version 1" }).click();
    const single = page.locator(".media-view img.media-file");
    await single.waitFor();
    assert.notEqual(await single.getAttribute("src"), newer.fileUrl);

    // The video plays, its bytes from the media listener.
    await page.goto(`${server.url}/default/default/media/${video.id}`);
    const player = page.locator("video.media-file");
    await player.waitFor();
    assert.notEqual(new URL(await player.getAttribute("src")).origin, new URL(server.url).origin);
    await until(() => player.evaluate((element) => element.readyState >= 2));
    await player.evaluate((element) => element.play());
    await until(() => player.evaluate((element) => element.currentTime > 0));

    // A pin on a moment of the video (the recording lasts about a second): the time it showed is kept, and its pin goes back there.
    await player.evaluate((element) => {
      element.pause();
      element.currentTime = 0.6;
    });
    await until(() => player.evaluate((element) => Math.abs(element.currentTime - 0.6) < 0.05));
    await page.getByRole("button", { name: "Pin a comment" }).click();
    const frame = await player.boundingBox();
    await page.mouse.click(frame.x + frame.width * 0.5, frame.y + frame.height * 0.25);
    await page.getByText("New pin at 0:00.6").waitFor();
    await page.getByLabel("Comment on this spot").fill("The colour flashes here");
    await page.getByRole("button", { name: "Comment on this spot" }).click();
    await page.getByRole("button", { name: "Comment thread 1 at 0:00.6" }).waitFor();
    const [moment] = (await server.api("GET", `media/${video.id}/comments`, { token: server.personalAccessToken })).body;
    assert.ok(Math.abs(moment.anchor.time - 0.6) < 0.05, JSON.stringify(moment.anchor));
    if (process.env.LOUPE_SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "media-video-pin.png") });
    await player.evaluate((element) => (element.currentTime = 0));
    await page.getByRole("button", { name: "Comment thread 1 at 0:00.6" }).click();
    await until(() => player.evaluate((element) => Math.abs(element.currentTime - 0.6) < 0.05));

    // A public media's share page, on the media listener: anyone with the link watches it.
    const shared = await upload(webm, { name: "shared-flow.webm", contentType: "video/webm", visibility: "public" });
    assert.notEqual(new URL(shared.url).origin, new URL(server.url).origin);
    const visitor = await browser.newPage();
    await visitor.goto(shared.url);
    assert.equal(await visitor.locator("h1").innerText(), "shared-flow.webm");
    const sharedPlayer = visitor.locator("video");
    await until(() => sharedPlayer.evaluate((element) => element.readyState >= 2));
    await sharedPlayer.evaluate((element) => element.play());
    await until(() => sharedPlayer.evaluate((element) => element.currentTime > 0));
    if (process.env.LOUPE_SCREENSHOT_DIR) await visitor.screenshot({ path: join(process.env.LOUPE_SCREENSHOT_DIR, "media-share.png") });
    await visitor.close();
  });
});
