// Notification mail through a real SMTP server (npm `smtp-server`, mails parsed with
// `mailparser`): a mention mails the mentioned user once; replies in a followed thread within the
// batch window make one mail; the one-click unsubscribe link stops the next mail of that kind; a
// review request mails the reviewer and their approval mails the build's followers; a comment on
// a followed test mails its followers; an
// SMTP server that refuses is retried until the job shows as failed, and requests never wait.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { clis, describeRun, GitRepo, node22, runCli } from "./support/cli.mjs";
import { patternPng } from "./support/png.mjs";
import { LoupeServer } from "./support/server.mjs";
import { createdBuildNumber, skipReason, waitForConclusion, writeScreens } from "./support/suite.mjs";

let SMTPServer = null;
let simpleParser = null;
try {
  ({ SMTPServer } = await import("smtp-server"));
  ({ simpleParser } = await import("mailparser"));
} catch {}

const skip = skipReason() || (SMTPServer && simpleParser ? false : "npm ci in tests/e2e (smtp-server, mailparser)");

/** An SMTP server on a free port that keeps every mail it accepted, or refuses all of them. */
async function startSmtp() {
  const smtp = {
    mails: [],
    refuse: false,
    attempts: 0,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      smtp.attempts += 1;
      const chunks = [];
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("end", async () => {
        if (smtp.refuse) {
          const error = new Error("Mailbox unavailable, try later");
          error.responseCode = 451;
          callback(error);
          return;
        }
        const parsed = await simpleParser(Buffer.concat(chunks));
        smtp.mails.push(parsed);
        callback();
      });
    },
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  smtp.port = server.server.address().port;
  smtp.close = () => new Promise((done) => server.close(done));
  return smtp;
}

/** Waits until `predicate()` is true (polling), or fails with `what`. */
async function eventually(what, predicate, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

describe("notification mail", { skip }, () => {
  let smtp;
  let server;
  let number;
  let bobToken;
  const mailsTo = (address) => smtp.mails.filter((mail) => mail.to?.value?.some((to) => to.address === address));

  before(async () => {
    smtp = await startSmtp();
    server = await LoupeServer.start({
      node22,
      settings: [
        "plugins.enabled=auth,builds,reviews,notifications,media",
        "mail.host=127.0.0.1",
        `mail.port=${smtp.port}`,
        "mail.tls=none",
        "mail.from=loupe@example.com",
        "notifications.batch_window=1s",
        "jobs.retry_base_ms=100",
        "jobs.retry_max_ms=200",
      ],
    });
    server.cli(["admin", "user", "create", "--slug", "bob", "--name", "Bob", "--email", "bob@example.com"]);
    server.cli(["admin", "member", "add", "--account", "default", "--user", "bob", "--role", "member"]);
    bobToken = /arp_\S+/.exec(server.cli(["admin", "token", "create", "--user", "bob", "--account", "bob", "--account", "default"]))?.[0];
    assert.ok(bobToken, "admin token create printed a token");
    // One build to comment on, uploaded by the official CLI.
    const cli = clis.find((c) => c.name === "4.x");
    const repo = new GitRepo({ branch: "notify" });
    const dir = writeScreens(repo, "shots", { "page.png": patternPng("notify") });
    const run = await runCli(cli, repo, ["upload", dir, "--build-name", "notify"], {
      ARGOS_TOKEN: server.projectToken,
      ARGOS_API_BASE_URL: server.apiBaseUrl,
    });
    assert.equal(run.code, 0, describeRun(cli, run));
    number = createdBuildNumber(run).number;
    await waitForConclusion(server, number);
  });

  after(async () => {
    await server?.stop();
    await smtp?.close();
  });

  const comment = async (body, { token = server.personalAccessToken, threadId } = {}) => {
    const started = Date.now();
    const response = await server.api("POST", `projects/default/default/builds/${number}/comments`, {
      token,
      body: { body, ...(threadId ? { threadId } : {}) },
    });
    assert.equal(response.status, 201, response.text);
    return { ...response.body, tookMs: Date.now() - started };
  };

  test("a mention mails the mentioned user once, text and escaped HTML, with one-click unsubscribe", async () => {
    await comment("look @bob: is 1 < 2 && \"x\" > 'y'?");
    await eventually("the mention mail", () => mailsTo("bob@example.com").length === 1);
    await sleep(1500);
    const mails = mailsTo("bob@example.com");
    assert.equal(mails.length, 1, "one mail, not one per delivery");
    const [mail] = mails;
    assert.match(mail.subject, /mentioned you on default\/default build #\d+/);
    assert.ok(mail.text.includes(`look @bob: is 1 < 2 && "x" > 'y'?`), mail.text);
    assert.ok(mail.html.includes("look @bob: is 1 &lt; 2 &amp;&amp; &quot;x&quot; &gt; &#39;y&#39;?"), mail.html);
    assert.ok(mail.text.includes(`${server.url}/default/default/builds/${number}`), mail.text);
    const header = (name) => mail.headerLines.find((line) => line.key === name)?.line ?? "";
    assert.match(header("list-unsubscribe-post"), /List-Unsubscribe-Post: List-Unsubscribe=One-Click/i);
    assert.match(header("list-unsubscribe"), /<http:\/\/\S+\/_loupe\/notifications\/unsubscribe\?token=\S+>/);
    assert.equal(mail.from.value[0].address, "loupe@example.com");
  });

  let replyMail;
  test("three replies in a followed thread within the window make one mail", async () => {
    const before = mailsTo("bob@example.com").length;
    const root = await comment("Bob's question", { token: bobToken });
    await comment("first answer", { threadId: root.id });
    await comment("second answer", { threadId: root.id });
    await comment("third answer", { threadId: root.id });
    await eventually("the reply mail", () => mailsTo("bob@example.com").length === before + 1);
    await sleep(1500);
    const mails = mailsTo("bob@example.com");
    assert.equal(mails.length, before + 1);
    replyMail = mails.at(-1);
    assert.equal(replyMail.subject, "[Loupe] 3 new notifications");
    for (const text of ["first answer", "second answer", "third answer"]) assert.ok(replyMail.text.includes(text), replyMail.text);
    // The author of the replies is not mailed about them.
    assert.equal(smtp.mails.filter((mail) => mail.to?.value?.[0]?.address !== "bob@example.com").length, 0);
  });

  test("the unsubscribe link stops the next mail of that kind", async () => {
    assert.ok(replyMail, "the reply mail arrived");
    const link = /(http:\/\/\S+\/_loupe\/notifications\/unsubscribe\?token=\S+)/.exec(replyMail.text)[1];
    const response = await fetch(link, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    assert.equal(response.status, 200, await response.text());
    const settings = await server.api("GET", "_loupe/notifications/settings", { token: bobToken });
    assert.equal(settings.status, 200, settings.text);
    assert.equal(settings.body.threadReplies, false);
    assert.equal(settings.body.mentions, true);
    // A forged token changes nothing.
    assert.equal((await fetch(`${link}x`)).status, 400);

    const before = mailsTo("bob@example.com").length;
    const root = await comment("another thread", { token: bobToken });
    await comment("a reply Bob no longer hears of", { threadId: root.id });
    // A mention still mails: its arrival proves the reply had its chance to be mailed.
    await comment("but @bob still hears of mentions");
    await eventually("the mention mail", () => mailsTo("bob@example.com").length === before + 1);
    await sleep(1500);
    const mails = mailsTo("bob@example.com").slice(before);
    assert.equal(mails.length, 1);
    assert.ok(!mails[0].text.includes("no longer hears"), mails[0].text);
    assert.ok(mails[0].text.includes("still hears of mentions"), mails[0].text);
  });

  test("a review request mails the reviewer; their approval mails the asker, who follows the build", async () => {
    server.cli(["admin", "user", "create", "--slug", "ann", "--name", "Ann", "--email", "ann@example.com"]);
    server.cli(["admin", "member", "add", "--account", "default", "--user", "ann", "--role", "member"]);
    const annToken = /arp_\S+/.exec(server.cli(["admin", "token", "create", "--user", "ann", "--account", "ann", "--account", "default"]))?.[0];
    assert.ok(annToken, "admin token create printed a token");
    const members = await server.api("GET", "accounts/default/members?perPage=100", { token: annToken });
    assert.equal(members.status, 200, members.text);
    const bobId = members.body.results.find((m) => m.user.slug === "bob").user.id;
    const bobBefore = mailsTo("bob@example.com").length;
    const reviewers = `projects/default/default/builds/${number}/reviewers`;
    const asked = await server.api("POST", reviewers, { token: annToken, body: { userIds: [bobId] } });
    assert.equal(asked.status, 200, asked.text);
    // Asking again is no news: one mail only.
    assert.equal((await server.api("POST", reviewers, { token: annToken, body: { userIds: [bobId] } })).status, 200);
    await eventually("the review request mail", () => mailsTo("bob@example.com").length === bobBefore + 1);
    await sleep(1500);
    const requestMails = mailsTo("bob@example.com").slice(bobBefore);
    assert.equal(requestMails.length, 1);
    assert.match(requestMails[0].subject, new RegExp(`Ann asked you to review default/default build #${number}$`));
    assert.ok(requestMails[0].text.includes(`${server.url}/default/default/builds/${number}`), requestMails[0].text);

    // Bob turns review requests off, a kind of its own: his approval still reaches Ann, who
    // follows the build since she asked.
    const off = await server.api("PATCH", "_loupe/notifications/settings", { token: bobToken, body: { reviewRequests: false } });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.reviewRequests, false);
    assert.equal(off.body.buildReviews, true);
    const review = await server.api("POST", `projects/default/default/builds/${number}/reviews`, { token: bobToken, body: { event: "APPROVE" } });
    assert.ok([200, 201].includes(review.status), review.text);
    await eventually("the approval mail", () => mailsTo("ann@example.com").length === 1);
    const [approval] = mailsTo("ann@example.com");
    assert.match(approval.subject, new RegExp(`Bob approved default/default build #${number}$`));
    assert.ok(approval.html.includes(`${server.url}/default/default/builds/${number}`), approval.html);
    // The reviewer hears nothing of their own approval.
    await sleep(1500);
    assert.equal(mailsTo("bob@example.com").length, bobBefore + 1);
  });

  test("a build a user follows concluding mails them whether it has changes to review", async () => {
    // A build created and followed by Bob before its screenshots arrive.
    const png = patternPng("followed-build");
    const key = createHash("sha256").update(png).digest("hex");
    const created = await server.api("POST", "builds", { body: { commit: "f".repeat(40), branch: "followed", screenshotKeys: [key] } });
    assert.equal(created.status, 201, created.text);
    for (const { putUrl } of created.body.screenshots) {
      assert.equal((await fetch(putUrl, { method: "PUT", headers: { "Content-Type": "image/png" }, body: png })).status, 200);
    }
    const followed = created.body.build.number;
    const follow = await server.api("POST", `projects/default/default/builds/${followed}/subscription`, { token: bobToken });
    assert.ok([200, 201, 204].includes(follow.status), follow.text);
    const before = mailsTo("bob@example.com").length;
    const done = await server.api("PUT", `builds/${created.body.build.id}`, { body: { screenshots: [{ name: "followed.png", key }] } });
    assert.equal(done.status, 200, done.text);
    await eventually("the conclusion mail", () => mailsTo("bob@example.com").length === before + 1);
    const mail = mailsTo("bob@example.com")[before];
    assert.match(mail.subject, new RegExp(`default/default build #${followed} has (changes to review|no changes)$`));
    assert.ok(mail.text.includes(`${server.url}/default/default/builds/${followed}`), mail.text);
    const header = (name) => mail.headerLines.find((line) => line.key === name)?.line ?? "";
    assert.match(header("list-unsubscribe"), /unsubscribe\?token=/);
    // The kind has its own switch.
    const settings = await server.api("GET", "_loupe/notifications/settings", { token: bobToken });
    assert.equal(settings.body.buildStatuses, true);
  });

  test("a comment on a test Bob follows mails him, naming the test and linking its page", async () => {
    const diffs = await server.api("GET", `projects/default/default/builds/${number}/diffs`, { token: server.personalAccessToken });
    const test = diffs.body.results[0].test;
    const follow = await server.api("POST", `projects/default/default/tests/${test.id}/subscription`, { token: bobToken });
    assert.equal(follow.status, 200, follow.text);
    const before = mailsTo("bob@example.com").length;
    const posted = await server.api("POST", `projects/default/default/tests/${test.id}/comments`, {
      token: server.personalAccessToken,
      body: { body: "This one flips on every run & more" },
    });
    assert.equal(posted.status, 201, posted.text);
    await eventually("the test comment mail", () => mailsTo("bob@example.com").length === before + 1);
    const mail = mailsTo("bob@example.com")[before];
    assert.equal(mail.subject, `[default/default] Admin commented on default/default test ${test.name}`);
    assert.ok(mail.text.includes("> This one flips on every run & more"), mail.text);
    assert.ok(mail.html.includes("This one flips on every run &amp; more"), mail.html);
    assert.ok(mail.text.includes(`${server.url}/default/default/tests/${test.id}`), mail.text);
    // Its own switch: off, the next comment mails nobody.
    const off = await server.api("PATCH", "_loupe/notifications/settings", { token: bobToken, body: { testComments: false } });
    assert.equal(off.body.testComments, false, off.text);
    await server.api("POST", `projects/default/default/tests/${test.id}/comments`, { token: server.personalAccessToken, body: { body: "again" } });
    await sleep(2500);
    assert.equal(mailsTo("bob@example.com").length, before + 1, "no mail once the kind is off");
  });

  test("a mention in a comment on a media mails the user, naming the media and linking its page", async () => {
    const png = patternPng("media mention");
    const hash = createHash("sha256").update(png).digest("hex");
    const declared = await server.api("POST", "media", { body: { name: "signup-flow.png", contentType: "image/png", size: png.length, hash } });
    assert.equal(declared.status, 201, declared.text);
    if (declared.body.upload) {
      const form = new FormData();
      for (const [name, value] of Object.entries(declared.body.upload.fields)) form.append(name, value);
      form.append("file", new Blob([png], { type: "image/png" }));
      assert.ok((await fetch(declared.body.upload.url, { method: "POST", body: form })).ok);
    }
    const mediaId = declared.body.media.id;
    assert.equal((await server.api("POST", `media/${mediaId}/finalize`)).status, 200);
    const before = mailsTo("bob@example.com").length;
    const posted = await server.api("POST", `media/${mediaId}/comments`, {
      token: server.personalAccessToken,
      body: { body: "@bob is the button placed right? 1 < 2 & 3", anchor: { type: "point", x: 0.5, y: 0.5 } },
    });
    assert.equal(posted.status, 201, posted.text);
    await eventually("the media mention mail", () => mailsTo("bob@example.com").length === before + 1);
    const mail = mailsTo("bob@example.com")[before];
    assert.equal(mail.subject, "[default/default] Admin mentioned you on default/default media signup-flow.png");
    assert.ok(mail.text.includes(`${server.url}/default/default/media/${mediaId}`), mail.text);
    assert.ok(mail.html.includes("is the button placed right? 1 &lt; 2 &amp; 3"), mail.html);
  });

  test("an invite is mailed to its address at once, with a link of its own; inviting again ends it", async () => {
    const invite = () =>
      server.api("POST", "accounts/default/invites", { token: server.personalAccessToken, body: { members: [{ email: "cleo@example.com", level: "contributor" }] } });
    const preview = (token) => server.api("GET", `_loupe/invites/${token}`, { token: server.personalAccessToken });
    const first = await invite();
    assert.equal(first.status, 201, first.text);
    await eventually("the invite mail", () => mailsTo("cleo@example.com").length === 1);
    const [mail] = mailsTo("cleo@example.com");
    assert.match(mail.subject, /^Admin invited you to Default on Loupe$/);
    const link = /(http:\/\/\S+\/_loupe\/join\/([0-9a-f]{40}))/.exec(mail.text);
    assert.ok(link, mail.text);
    assert.match(mail.text, /as contributor/);
    assert.ok(mail.html.includes(`href="${link[1]}"`), mail.html);
    assert.notEqual(link[1], first.body[0].inviteLink, "the mail carries a link of its own");
    assert.ok(!mail.headerLines.some((line) => line.key === "list-unsubscribe"), "nothing to unsubscribe from");
    const opened = await preview(link[2]);
    assert.equal(opened.status, 200, opened.text);
    assert.equal(opened.body.email, "cleo@example.com");
    assert.equal(opened.body.level, "contributor");
    const answered = first.body[0].inviteLink.split("/").pop();
    assert.equal((await preview(answered)).status, 200, "the answer's link works too");
    if (server.canQuery) {
      const [[stored]] = server.query("SELECT mail_token_hash FROM team_invites WHERE email = 'cleo@example.com'");
      assert.match(stored, /^[0-9a-f]{64}$/);
      assert.ok(!mail.text.includes(stored), "only the hash is stored");
    }
    // Inviting again refreshes the invite: both earlier links stop working, a new mail comes.
    assert.equal((await invite()).status, 201);
    await eventually("the second invite mail", () => mailsTo("cleo@example.com").length === 2);
    assert.equal((await preview(link[2])).status, 404);
    assert.equal((await preview(answered)).status, 404);
    const again = /\/_loupe\/join\/([0-9a-f]{40})/.exec(mailsTo("cleo@example.com")[1].text)[1];
    assert.equal((await preview(again)).status, 200);
    await sleep(1500);
    assert.equal(mailsTo("cleo@example.com").length, 2, "one mail per invite");
  });

  test("an SMTP server that refuses: retried, then failed in `loupe jobs list`; requests unaffected", async () => {
    smtp.refuse = true;
    const attemptsBefore = smtp.attempts;
    const posted = await comment("@bob this one cannot be delivered");
    assert.ok(posted.tookMs < 2000, `the request took ${posted.tookMs} ms`);
    await eventually("the failed send job", () => /notifications\.send\s+failed/.test(
      server.cli(["jobs", "list", "--kind", "notifications.send", "--status", "failed"])), 30_000);
    assert.ok(smtp.attempts - attemptsBefore >= 2, `retried (${smtp.attempts - attemptsBefore} attempts)`);
    smtp.refuse = false;
    const health = await server.api("GET", `projects/default/default/builds/${number}`, { token: server.personalAccessToken });
    assert.equal(health.status, 200);
  });
});
