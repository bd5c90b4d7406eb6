// Media with the latest official CLI: `argos media upload` of a before/after pair of PNGs (the
// CLI may convert them to WebP) and of a new version, then `media list|get|versions|update|
// delete` and `media comment create|list|get|edit|react|resolve|subscribe|delete`, each answer
// checked; the files are served from the media listener (another origin, nothing there can
// run); a team media's link is its page in the review page, a public one's a share page on the
// media listener; the pull request's comment listing its media, posted to the GitHub stand-in
// once and edited in place as media arrive and go; and the refusals: another project's token,
// bytes that are not the declared kind, bytes that are not the declared hash, a file never
// uploaded, a published media's rename. (An MP4 recorded by Chromium is uploaded by the CLI in
// tests/browser/media-page.test.mjs.)
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { clis, describeRun, GitRepo, node22, runCli } from "./support/cli.mjs";
import { patternPng } from "./support/png.mjs";
import { LoupeServer } from "./support/server.mjs";
import { Standin, standinMissing } from "./support/standin.mjs";
import { skipReason } from "./support/suite.mjs";

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const webhookSecret = "whsec-media-e2e";

describe("media with the latest CLI", { skip: skipReason() || standinMissing() }, () => {
  let server, standin;
  before(async () => {
    standin = await Standin.start();
    await standin.setData({ installations: { 77: { mode: "ok", repositories: ["acme/web"] } } });
    server = await LoupeServer.start({
      node22,
      settings: [
        "plugins.enabled=auth,builds,reviews,git,media",
        `github.webhook_secret=${webhookSecret}`,
        ...standin.githubSettings(),
        "jobs.retry_base_ms=200",
        "jobs.retry_max_ms=500",
      ],
    });
  });
  after(async () => {
    await server?.stop();
    standin?.stop();
  });

  const cli = clis.find((c) => c.name === "latest");
  const api = async (method, path, { token = server.personalAccessToken, body } = {}) => {
    const response = await fetch(`${server.url}/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  test("upload a before/after pair and a new version; list, get, versions, update, delete", async () => {
    const repo = new GitRepo({ branch: "media-e2e" });
    const tokenEnv = { ARGOS_TOKEN: server.projectToken, ARGOS_API_BASE_URL: server.apiBaseUrl };
    const userEnv = { ARGOS_TOKEN: server.personalAccessToken, ARGOS_API_BASE_URL: server.apiBaseUrl };
    const run = async (args, env = tokenEnv) => {
      const result = await runCli(cli, repo, ["media", ...args], env);
      assert.equal(result.code, 0, describeRun(cli, result));
      return result;
    };
    writeFileSync(join(repo.root, "checkout-before.png"), patternPng("before", { width: 120, height: 90 }));
    writeFileSync(join(repo.root, "checkout-after.png"), patternPng("after", { width: 120, height: 90 }));
    const uploaded = JSON.parse((await run(["upload", "checkout-before.png", "checkout-after.png", "--branch", "media-e2e", "--json"])).stdout);
    assert.equal(uploaded.length, 2);
    const [before, afterShot] = uploaded;
    assert.deepEqual([before.name, before.state, afterShot.name, afterShot.state], ["checkout.png", "before", "checkout.png", "after"]);
    for (const media of uploaded) {
      assert.equal(media.status, "ready");
      assert.equal(media.stage, "staged");
      assert.equal(media.branch, "media-e2e");
      assert.equal(media.version, 1);
      assert.match(media.contentType, /^image\/(png|webp)$/);
      assert.deepEqual([media.width, media.height], [120, 90], "dimensions read from the bytes");
      assert.equal(media.visibility, "team", "a private project's media are the team's");
      assert.match(media.markdown, /^\[!\[checkout\.png\]\(http/);
    }

    // The bytes come from the media listener, not the API's origin, and can run nothing.
    const fileUrl = new URL(afterShot.fileUrl);
    assert.notEqual(fileUrl.origin, new URL(server.url).origin);
    const file = await fetch(afterShot.fileUrl);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get("content-type"), afterShot.contentType);
    assert.equal(file.headers.get("x-content-type-options"), "nosniff");
    assert.match(file.headers.get("content-security-policy"), /sandbox/);
    assert.equal(Buffer.from(await file.arrayBuffer()).length, afterShot.sizeBytes);
    // A range (a browser seeking in a video), and a revalidation.
    const part = await fetch(afterShot.fileUrl, { headers: { range: "bytes=0-9" } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get("content-range"), `bytes 0-9/${afterShot.sizeBytes}`);
    assert.equal(Buffer.from(await part.arrayBuffer()).length, 10);
    assert.equal((await fetch(afterShot.fileUrl, { headers: { range: `bytes=${afterShot.sizeBytes}-` } })).status, 416);
    assert.equal((await fetch(afterShot.fileUrl, { headers: { "if-none-match": file.headers.get("etag") } })).status, 304);
    // A team media is shared as its page in the review page (behind sign-in); an unknown file
    // token is a 404.
    assert.equal(afterShot.url, `${server.url}/default/default/media/${afterShot.id}`);
    assert.equal((await fetch(`${fileUrl.origin}/files/unknown`)).status, 404);

    // The same bytes again: the same media, no new version. Other bytes: version 2.
    const again = JSON.parse((await run(["upload", "checkout-after.png", "--branch", "media-e2e", "--json"])).stdout);
    assert.equal(again[0].id, afterShot.id);
    assert.equal(again[0].version, 1);
    writeFileSync(join(repo.root, "checkout-after.png"), patternPng("after, version 2", { width: 120, height: 90 }));
    const second = JSON.parse((await run(["upload", "checkout-after.png", "--branch", "media-e2e", "--description", "Green button", "--json"])).stdout);
    assert.equal(second[0].id, afterShot.id);
    assert.equal(second[0].version, 2);
    assert.equal(second[0].versionCount, 2);
    assert.equal(second[0].description, "Green button");
    const versions = JSON.parse((await run(["versions", afterShot.id, "--json"])).stdout);
    assert.deepEqual(versions.map((v) => v.number), [2, 1]);
    assert.notEqual(versions[0].fileUrl, versions[1].fileUrl);

    // Listed with a personal token (the project named), filtered.
    const listed = JSON.parse((await run(["list", "--project", "default/default", "--json"], userEnv)).stdout);
    assert.deepEqual(listed.map((m) => m.id).sort(), [before.id, afterShot.id].sort());
    const searched = JSON.parse((await run(["list", "--project", "default/default", "--search", "green", "--json"], userEnv)).stdout);
    assert.deepEqual(searched.map((m) => m.id), [afterShot.id]);
    assert.match((await run(["list", "--project", "default/default", "--type", "video"], userEnv)).stdout, /No media found\./);

    const got = JSON.parse((await run(["get", before.id, "--json"])).stdout);
    assert.equal(got.id, before.id);
    const renamed = JSON.parse((await run(["update", before.id, "--name", "cart.png", "--no-description", "--json"])).stdout);
    assert.equal(renamed.name, "cart.png");
    assert.equal(renamed.description, null);

    // Comment threads pinned on the media (personal token), with the comment library of builds.
    const comment = (args) => run(["comment", ...args], userEnv);
    const pinned = JSON.parse((await comment(["create", afterShot.id, "--body", "The **button** moved", "--anchor-point", "0.25,0.5", "--json"])).stdout);
    assert.equal(pinned.mediaId, afterShot.id);
    assert.equal(pinned.mediaVersionId, versions[0].id, "pinned on the newest version");
    assert.deepEqual(pinned.anchor, { type: "point", x: 0.25, y: 0.5 });
    assert.equal(pinned.buildId, null);
    const reply = JSON.parse((await comment(["create", afterShot.id, "--body", "Intended", "--reply-to", pinned.id, "--json"])).stdout);
    assert.equal(reply.threadId, pinned.id);
    const listedComments = JSON.parse((await comment(["list", afterShot.id, "--json"])).stdout);
    assert.deepEqual(listedComments.map((c) => c.text), ["The button moved", "Intended"]);
    assert.equal(JSON.parse((await comment(["get", afterShot.id, reply.id, "--json"])).stdout).id, reply.id);
    assert.equal(JSON.parse((await comment(["edit", afterShot.id, reply.id, "--body", "Intended, yes", "--json"])).stdout).text, "Intended, yes");
    const reacted = JSON.parse((await comment(["react", afterShot.id, pinned.id, "👍", "--json"])).stdout);
    assert.deepEqual(reacted.reactions.map((r) => [r.emoji, r.count]), [["👍", 1]]);
    assert.notEqual(JSON.parse((await comment(["resolve", afterShot.id, pinned.id, "--json"])).stdout).resolvedAt, null);
    assert.match((await comment(["list", afterShot.id])).stdout, /No (open )?comment/i, "a resolved thread leaves the default list");
    await comment(["subscribe", afterShot.id, pinned.id, "--json"]);
    await comment(["delete", afterShot.id, reply.id]);
    // A media comment is pinned to a point, never to lines; a project token may not comment.
    const lines = await api("POST", `/media/${afterShot.id}/comments`, { body: { body: "x", anchor: { type: "lines", from: 1, to: 2 } } });
    assert.equal(lines.status, 400);
    assert.equal(lines.body.error, "A media comment can only be anchored to a point");
    assert.equal((await api("POST", `/media/${afterShot.id}/comments`, { body: { body: "x", anchor: { type: "point", x: 2, y: 0 } } })).status, 400);
    assert.equal((await api("GET", `/media/${afterShot.id}/comments`, { token: server.projectToken })).status, 401);

    assert.match((await run(["delete", before.id])).stdout, new RegExp(`Media ${before.id} deleted`));
    // Deleting a media deletes its comment threads.
    assert.match((await run(["delete", afterShot.id])).stdout, /deleted/);
    assert.equal((await api("GET", `/media/${afterShot.id}/comments`)).status, 404);
    if (server.canQuery) assert.deepEqual(server.query(`SELECT COUNT(*) FROM comments WHERE media_id = ${Number(afterShot.id)}`), [["0"]]);
    assert.equal((await api("GET", `/media/${before.id}`)).status, 404);
  });

  test("refusals: another project's token, bytes of another kind, nothing uploaded, bad ids", async () => {
    const png = patternPng("refusals", { width: 30, height: 20 });
    const declare = (body, token) => api("POST", "/media", { token, body: { contentType: "image/png", size: png.length, hash: sha256(png), ...body } });
    // A person must name the project, in the owner/project form.
    assert.equal((await declare({ name: "a.png" })).body.error, "`project` is required when uploading with a personal access token. Pass it as `owner/project`.");
    assert.equal((await declare({ name: "a.png", project: "default" })).status, 400);
    assert.equal((await declare({ name: "a.png", project: "default/unknown" })).status, 404);
    assert.equal((await declare({ name: "", project: "default/default" })).status, 400);
    assert.equal((await declare({ name: "a.gif", contentType: "text/html", project: "default/default" })).status, 400);

    // Declared as a video, uploaded as a PNG: finalize refuses, the media stays pending.
    const video = await api("POST", "/media", { token: server.projectToken, body: { name: "clip.mp4", contentType: "video/mp4", size: png.length, hash: sha256(png) } });
    assert.equal(video.status, 201);
    assert.ok(video.body.upload, "an upload form");
    const form = new FormData();
    for (const [name, value] of Object.entries(video.body.upload.fields)) form.append(name, value);
    form.append("file", new Blob([png], { type: "video/mp4" }));
    assert.ok((await fetch(video.body.upload.url, { method: "POST", body: form })).ok);
    const refused = await api("POST", `/media/${video.body.media.id}/finalize`, { token: server.projectToken });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, "Uploaded bytes are image/png, not the declared video/mp4.");
    assert.equal((await api("GET", `/media/${video.body.media.id}`, { token: server.projectToken })).body.status, "pending");

    // Bytes never sent: finalize says so.
    const other = Buffer.from(png);
    other[other.length - 5] ^= 0xff;
    const missing = await api("POST", "/media", { token: server.projectToken, body: { name: "b.png", contentType: "image/png", size: other.length, hash: sha256(other) } });
    // Bytes that are not the declared hash: the upload target refuses them, nothing is kept.
    const wrongForm = new FormData();
    for (const [name, value] of Object.entries(missing.body.upload.fields)) wrongForm.append(name, value);
    wrongForm.append("file", new Blob([png], { type: "image/png" }));
    const wrong = await fetch(missing.body.upload.url, { method: "POST", body: wrongForm });
    assert.equal(wrong.status, 400);
    assert.match((await wrong.json()).error, /does not match its key/);
    const notUploaded = await api("POST", `/media/${missing.body.media.id}/finalize`, { token: server.projectToken });
    assert.equal(notUploaded.status, 400);
    assert.match(notUploaded.body.error, /has not been uploaded yet/);

    // Another project's token sees none of this project's media; ids are checked.
    const created = await api("POST", "/projects", { body: { name: "other", accountSlug: "default" } });
    assert.ok([200, 201].includes(created.status), JSON.stringify(created.body));
    const issued = await fetch(`${server.url}/_loupe/projects/default/other/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.personalAccessToken}`, "content-type": "application/json" },
      body: "{}",
    });
    assert.ok(issued.ok, await issued.clone().text());
    const otherToken = (await issued.json()).token;
    assert.equal((await api("GET", `/media/${video.body.media.id}`, { token: otherToken })).status, 404);
    assert.equal((await api("DELETE", `/media/${video.body.media.id}`, { token: otherToken })).status, 404);
    assert.equal((await api("GET", "/projects/default/default/media", { token: otherToken })).status, 401);
    assert.equal((await api("GET", "/media/not-a-number")).body.error, "Invalid media ID.");
    assert.equal((await api("GET", "/media/999999")).body.error, "Media not found");

    // A media published to a pull request keeps its name.
    const published = await declare({ name: "pr.png", project: "default/default", prNumber: 7, branch: "feature" });
    assert.equal(published.body.media.stage, "published");
    assert.equal(published.body.media.prNumber, 7);
    const rename = await api("PATCH", `/media/${published.body.media.id}`, { body: { name: "other.png" } });
    assert.equal(rename.status, 400);
    assert.match(rename.body.error, /published to a pull request/);
  });

  test("a pull request opened for a branch takes the media staged on it (GitHub webhook)", async () => {
    server.cli(["admin", "project", "link-github", "--project", "default/default", "--repo", "acme/web", "--installation-id", "77"]);
    const png = patternPng("staged", { width: 24, height: 16 });
    const declared = await api("POST", "/media", { token: server.projectToken, body: { name: "staged.png", contentType: "image/png", size: png.length, hash: sha256(png), branch: "feature-x" } });
    assert.equal(declared.status, 201);
    if (declared.body.upload) {
      const form = new FormData();
      for (const [name, value] of Object.entries(declared.body.upload.fields)) form.append(name, value);
      form.append("file", new Blob([png], { type: "image/png" }));
      assert.ok((await fetch(declared.body.upload.url, { method: "POST", body: form })).ok);
    }
    const id = declared.body.media.id;
    assert.equal((await api("POST", `/media/${id}/finalize`, { token: server.projectToken })).body.stage, "staged");
    const deliver = (event) => {
      const body = JSON.stringify(event);
      return fetch(`${server.url}/_loupe/webhooks/github`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "pull_request",
          "x-hub-signature-256": `sha256=${createHmac("sha256", webhookSecret).update(body).digest("hex")}`,
        },
        body,
      });
    };
    const opened = (number, headRepository) => ({
      action: "opened",
      number,
      pull_request: { number, head: { ref: "feature-x", repo: { full_name: headRepository } } },
      repository: { full_name: "acme/web" },
    });
    // A fork's pull request of a branch with the same name takes nothing.
    assert.deepEqual(await (await deliver(opened(41, "someone/web"))).json(), { ignored: true });
    const answer = await deliver(opened(42, "acme/web"));
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { ignored: false, projects: 1 });
    const deadline = Date.now() + 20_000;
    let media;
    do {
      await new Promise((done) => setTimeout(done, 100));
      media = (await api("GET", `/media/${id}`, { token: server.projectToken })).body;
    } while (media.stage !== "published" && Date.now() < deadline);
    assert.equal(media.stage, "published");
    assert.equal(media.prNumber, 42);
    assert.equal(media.branch, "feature-x");
  });

  test("the pull request's comment lists its media: posted once, edited in place", async () => {
    // Runs after the webhook test: pull request 42 has adopted staged.png.
    const comments = async (wanted) => {
      const deadline = Date.now() + 20_000;
      let posts;
      do {
        await new Promise((done) => setTimeout(done, 100));
        posts = (await standin.posts()).filter((p) => p.call.startsWith("comment"));
      } while (!wanted(posts) && Date.now() < deadline);
      return posts;
    };
    const lastBody = (posts) => posts.at(-1)?.body?.body ?? "";
    let posts = await comments((all) => all.some((p) => p.call === "comment_create"));
    assert.deepEqual(posts.map((p) => [p.call, p.number, p.repository]), [["comment_create", 42, "acme/web"]]);
    const commentId = posts[0].id;
    assert.match(lastBody(posts), /^\*\*1 screenshot uploaded to Loupe\*\*/);
    assert.match(lastBody(posts), /<strong>staged\.png<\/strong>/);
    assert.match(lastBody(posts), /<img src="http:\/\/[^"]+\/files\/[^"]+" alt="staged\.png">/);

    // A public media uploaded by the CLI straight to the pull request: the same comment, edited.
    const repo = new GitRepo({ branch: "feature-x" });
    writeFileSync(join(repo.root, "dialog.png"), patternPng("dialog", { width: 40, height: 30 }));
    const env = { ARGOS_TOKEN: server.projectToken, ARGOS_API_BASE_URL: server.apiBaseUrl };
    const result = await runCli(cli, repo, ["media", "upload", "dialog.png", "--pr", "42", "--visibility", "public", "--description", "The <new> dialog", "--json"], env);
    assert.equal(result.code, 0, describeRun(cli, result));
    const [dialog] = JSON.parse(result.stdout);
    assert.equal(dialog.stage, "published");
    // Its link is a share page on the media listener, open to anyone with it.
    assert.notEqual(new URL(dialog.url).origin, new URL(server.url).origin);
    const page = await fetch(dialog.url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<h1>dialog\.png<\/h1>/);
    posts = await comments((all) => /2 screenshots/.test(lastBody(all)));
    assert.deepEqual(posts.map((p) => p.call), ["comment_create", "comment_edit"]);
    assert.equal(posts[1].id, commentId, "the same comment, edited in place");
    const body = lastBody(posts);
    assert.match(body, /^\*\*2 screenshots uploaded to Loupe\*\*/);
    assert.ok(body.indexOf("staged.png") < body.indexOf("dialog.png"), "in upload order");
    assert.match(body, /<strong>dialog\.png<\/strong><br>The &lt;new&gt; dialog/, "the description escaped");
    assert.ok(body.includes(`<a href="${dialog.url}">`), "linked to the share page");

    // Deleting a media takes it out of the comment.
    assert.equal((await api("DELETE", `/media/${dialog.id}`, { token: server.projectToken })).status, 204);
    posts = await comments((all) => /1 screenshot uploaded/.test(lastBody(all)) && all.length === 3);
    assert.deepEqual(posts.map((p) => [p.call, p.id]), [["comment_create", commentId], ["comment_edit", commentId], ["comment_edit", commentId]]);
    assert.doesNotMatch(lastBody(posts), /dialog\.png/);
  });
});
