// Reviewing with the official CLIs: the 4.x CLI's `argos build review --conclusion`, the latest
// CLI's `argos review create|list|dismiss` and its `argos comment …` and `argos build subscribe`
// commands, each with a personal access token, on a build the same CLI uploaded; and the latest
// CLI's team administration (`argos account get|update`, `argos account member
// list|set-level|remove`, `argos account invite create|list|cancel|reset-link`, `argos account
// domain list|add|remove`) and `argos whoami`, and project administration (`argos project
// update|transfer`, `argos project contributor list|set|remove`, `argos review reviewer
// add|list|remove`), each change checked through the API; and the latest CLI's flakiness
// commands (`argos test list|get|changes`, `argos change list|ignore|unignore`) on reference
// builds it uploaded, with the comments on a test (`argos test comment …`) and `argos test
// subscribe|unsubscribe`.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { clis, describeRun, GitRepo, node22, runCli } from "./support/cli.mjs";
import { patternPng } from "./support/png.mjs";
import { LoupeServer } from "./support/server.mjs";
import { createdBuildNumber, getBuild, skipReason, waitForConclusion, writeScreens } from "./support/suite.mjs";

describe("reviews with the official CLIs", { skip: skipReason() }, () => {
  let server;
  before(async () => {
    server = await LoupeServer.start({ node22 });
  });
  after(async () => {
    await server?.stop();
  });

  /** A main build, then a branch build with one changed screenshot: changes-detected. */
  async function changedBuild(cli, tag = "") {
    const name = `review-${cli.name}${tag}`;
    const repo = new GitRepo({ branch: name });
    const env = { ARGOS_TOKEN: server.projectToken, ARGOS_API_BASE_URL: server.apiBaseUrl };
    repo.git("checkout", "-q", "main");
    const base = writeScreens(repo, `main-${cli.name}`, { "page.png": patternPng(`page-${cli.name}`) });
    const mainRun = await runCli(cli, repo, ["upload", base, "--build-name", name], env);
    assert.equal(mainRun.code, 0, describeRun(cli, mainRun));
    await waitForConclusion(server, createdBuildNumber(mainRun).number);
    repo.git("checkout", "-q", repo.branch);
    const changed = writeScreens(repo, `branch-${cli.name}`, {
      "page.png": patternPng(`page-${cli.name}`, { paint: { x: 10, y: 8, width: 12, height: 10 } }),
    });
    const run = await runCli(cli, repo, ["upload", changed, "--build-name", name], env);
    assert.equal(run.code, 0, describeRun(cli, run));
    const { number } = createdBuildNumber(run);
    const build = await waitForConclusion(server, number);
    assert.equal(build.status, "changes-detected", JSON.stringify(build));
    return { repo, number };
  }

  const userEnv = () => ({ ARGOS_TOKEN: server.personalAccessToken, ARGOS_API_BASE_URL: server.apiBaseUrl });

  test("CLI 4.x: build review --conclusion approve, then request-changes", async () => {
    const cli = clis.find((c) => c.name === "4.x");
    const { repo, number } = await changedBuild(cli);
    const project = ["--project", "default/default"];
    const approve = await runCli(cli, repo, ["build", "review", String(number), "--conclusion", "approve", ...project], userEnv());
    assert.equal(approve.code, 0, describeRun(cli, approve));
    assert.equal((await getBuild(server, number)).status, "accepted");
    const reject = await runCli(cli, repo, ["build", "review", String(number), "--conclusion", "request-changes", "--json", ...project], userEnv());
    assert.equal(reject.code, 0, describeRun(cli, reject));
    assert.equal(JSON.parse(reject.stdout).state, "rejected");
    assert.equal((await getBuild(server, number)).status, "rejected");
  });

  test("latest CLI: review create, list and dismiss", async () => {
    const cli = clis.find((c) => c.name === "latest");
    const { repo, number } = await changedBuild(cli);
    const project = ["--project", "default/default"];
    const created = await runCli(cli, repo, ["review", "create", String(number), "--event", "reject", "--json", ...project], userEnv());
    assert.equal(created.code, 0, describeRun(cli, created));
    const review = JSON.parse(created.stdout);
    assert.equal(review.state, "rejected");
    assert.equal((await getBuild(server, number)).status, "rejected");

    const listed = await runCli(cli, repo, ["review", "list", String(number), ...project], userEnv());
    assert.equal(listed.code, 0, describeRun(cli, listed));
    assert.match(listed.stdout, new RegExp(`#${review.id} \\[rejected\\]`));

    const dismissed = await runCli(cli, repo, ["review", "dismiss", String(number), review.id, "--json", ...project], userEnv());
    assert.equal(dismissed.code, 0, describeRun(cli, dismissed));
    assert.ok(JSON.parse(dismissed.stdout).dismissedAt);
    assert.equal((await getBuild(server, number)).status, "changes-detected");

    const approved = await runCli(cli, repo, ["review", "create", String(number), "--event", "approve", "--json", ...project], userEnv());
    assert.equal(approved.code, 0, describeRun(cli, approved));
    assert.equal((await getBuild(server, number)).status, "accepted");
  });

  test("latest CLI: anchored comments, replies, reactions, resolve, edit, delete, drafts, subscriptions", async () => {
    const cli = clis.find((c) => c.name === "latest");
    const { repo, number } = await changedBuild(cli, "-comments");
    const project = ["--project", "default/default"];
    const run = async (args) => {
      const result = await runCli(cli, repo, [...args, "--json", ...project], userEnv());
      assert.equal(result.code, 0, describeRun(cli, result));
      return JSON.parse(result.stdout);
    };
    const diffs = await server.api("GET", `projects/default/default/builds/${number}/diffs?needsReview=true`, {
      token: server.personalAccessToken,
    });
    assert.equal(diffs.status, 200, diffs.text);
    const diffId = diffs.body.results[0].id;

    const root = await run(["comment", "create", String(number), "--body", "The **header** moved", "--diff", diffId, "--anchor-point", "0.25,0.5"]);
    assert.equal(root.screenshotDiffId, diffId);
    assert.deepEqual(root.anchor, { type: "point", x: 0.25, y: 0.5 });
    assert.equal(root.pending, false);
    const reply = await run(["comment", "create", String(number), "--body", "Intended", "--reply-to", root.id]);
    assert.equal(reply.threadId, root.id);

    const reacted = await run(["comment", "react", String(number), root.id, "👍"]);
    assert.deepEqual(reacted.reactions.map((r) => [r.emoji, r.count]), [["👍", 1]]);
    const resolved = await run(["comment", "resolve", String(number), reply.id]);
    assert.equal(resolved.id, root.id, "resolving through a reply returns the root");
    assert.ok(resolved.resolvedAt);
    const edited = await run(["comment", "edit", String(number), reply.id, "--body", "Intended, see the spec"]);
    assert.ok(edited.editedAt);

    const listed = await run(["comment", "list", String(number)]);
    assert.deepEqual(listed.map((c) => c.id), [root.id, reply.id]);
    await run(["comment", "delete", String(number), reply.id]);
    assert.deepEqual((await run(["comment", "list", String(number)])).map((c) => c.id), [root.id]);

    // A draft stays pending until its review is submitted.
    const draft = await run(["comment", "create", String(number), "--body", "Check the footer too", "--draft"]);
    assert.equal(draft.pending, true);
    await run(["review", "create", String(number), "--event", "approve"]);
    const afterReview = await run(["comment", "list", String(number)]);
    assert.equal(afterReview.find((c) => c.id === draft.id).pending, false);

    assert.equal((await run(["build", "unsubscribe", String(number)])).subscribed, false);
    assert.equal((await run(["build", "subscribe", String(number)])).subscribed, true);
  });
  test("latest CLI: account get, update, and member list, set-level, remove", async () => {
    const cli = clis.find((c) => c.name === "latest");
    server.admin("user", "create", "--slug", "crew-owner", "--name", "crew-owner");
    server.admin("account", "create", "--slug", "crew", "--name", "Crew", "--owner", "crew-owner");
    for (const [slug, role] of [["crew-mia", "member"], ["crew-ned", "contributor"]]) {
      server.admin("user", "create", "--slug", slug, "--name", slug);
      server.admin("member", "add", "--account", "crew", "--user", slug, "--role", role);
    }
    const created = server.admin("token", "create", "--user", "crew-owner", "--account", "crew");
    const token = JSON.stringify(created).match(/arp_[A-Za-z0-9_]{36}/)[0];
    const repo = new GitRepo({ branch: "crew-admin" });
    const env = { ARGOS_TOKEN: token, ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_ACCOUNT: "crew" };
    const run = async (args) => {
      const result = await runCli(cli, repo, [...args, "--json"], env);
      assert.equal(result.code, 0, describeRun(cli, result));
      return JSON.parse(result.stdout);
    };
    const api = async (path) => {
      const answer = await server.api("GET", path, { token });
      assert.equal(answer.status, 200, answer.text);
      return answer.body;
    };

    // `argos whoami` (GET /me): the token's user and the one account its scope holds.
    const me = await run(["whoami"]);
    assert.equal(me.slug, "crew-owner");
    assert.deepEqual(me.accounts.map((a) => [a.slug, a.type]), [["crew", "team"]]);
    const projectWhoami = await runCli(cli, repo, ["whoami"], { ARGOS_TOKEN: server.projectToken, ARGOS_API_BASE_URL: server.apiBaseUrl });
    assert.notEqual(projectWhoami.code, 0, describeRun(cli, projectWhoami));
    assert.match(projectWhoami.output, /requires a personal access token/, describeRun(cli, projectWhoami));

    const account = await run(["account", "get"]);
    assert.equal(account.slug, "crew");
    assert.equal(account.type, "team");
    assert.equal(account.plan, null);
    assert.equal(account.defaultUserLevel, "member");

    const updated = await run(["account", "update", "--default-user-level", "contributor"]);
    assert.equal(updated.defaultUserLevel, "contributor");
    assert.equal((await api("/accounts/crew")).defaultUserLevel, "contributor");

    const listed = await run(["account", "member", "list", "--order-by", "name-asc"]);
    const members = Array.isArray(listed) ? listed : listed.results;
    assert.deepEqual(members.map((m) => [m.user.slug, m.level]), [["crew-mia", "member"], ["crew-ned", "contributor"], ["crew-owner", "owner"]]);
    const owners = await run(["account", "member", "list", "--levels", "owner"]);
    assert.deepEqual((Array.isArray(owners) ? owners : owners.results).map((m) => m.user.slug), ["crew-owner"]);
    const idOf = (slug) => members.find((m) => m.user.slug === slug).user.id;

    // The CLI prints the server's refusal: the team's only owner keeps their role.
    const lastOwner = await runCli(cli, repo, ["account", "member", "set-level", idOf("crew-owner"), "--level", "member"], env);
    assert.notEqual(lastOwner.code, 0, describeRun(cli, lastOwner));
    assert.match(lastOwner.output, /last owner/, describeRun(cli, lastOwner));

    const promoted = await run(["account", "member", "set-level", idOf("crew-mia"), "--level", "owner"]);
    assert.equal(promoted.level, "owner");
    const afterPromotion = await api("/accounts/crew/members?levels=owner&orderBy=name-asc");
    assert.deepEqual(afterPromotion.results.map((m) => m.user.slug), ["crew-mia", "crew-owner"]);

    const removed = await runCli(cli, repo, ["account", "member", "remove", idOf("crew-ned"), "--json"], env);
    assert.equal(removed.code, 0, describeRun(cli, removed));
    const afterRemoval = await api("/accounts/crew/members");
    assert.equal(afterRemoval.pageInfo.total, 2);
    assert.ok(!afterRemoval.results.some((m) => m.user.slug === "crew-ned"));

    // Invites by email: made, listed, refreshed, cancelled, accepted only by their address.
    server.admin("user", "set-email", "--user", "crew-owner", "--email", "owner@crew.example");
    const tokenOf = (slug, email) => {
      server.admin("user", "create", "--slug", slug, "--name", slug, ...(email ? ["--email", email] : []));
      return JSON.stringify(server.admin("token", "create", "--user", slug)).match(/arp_[A-Za-z0-9_]{36}/)[0];
    };
    const join = async (link, asToken) => {
      const answer = await fetch(`${server.url}/_loupe/invites/${link.split("/").pop()}/accept`, {
        method: "POST",
        headers: { Authorization: `Bearer ${asToken}` },
      });
      return { status: answer.status, body: await answer.json() };
    };
    const zoe = tokenOf("crew-zoe", "zoe@crew.example");
    const eve = tokenOf("crew-eve", "eve@elsewhere.example");
    const made = await run(["account", "invite", "create", "Zoe@crew.example", "bob@crew.example", "--level", "contributor"]);
    assert.deepEqual(made.map((i) => [i.email, i.level, i.expired]), [["zoe@crew.example", "contributor", false], ["bob@crew.example", "contributor", false]]);
    assert.ok(made.every((i) => i.inviteLink.startsWith(`${server.url}/_loupe/join/`)));
    const again = await run(["account", "invite", "create", "bob@crew.example", "--level", "member"]);
    assert.equal(again[0].id, made[1].id, "inviting a pending address refreshes its invite");
    const rows = (answer) => answer.results ?? answer;
    const pending = await run(["account", "invite", "list"]);
    assert.deepEqual(rows(pending).map((i) => [i.email, i.level]), [["bob@crew.example", "member"], ["zoe@crew.example", "contributor"]]);
    assert.deepEqual(rows(await run(["account", "invite", "list", "--search", "ZOE"])).map((i) => i.email), ["zoe@crew.example"]);
    assert.equal((await join(made[1].inviteLink, eve)).status, 404, "the refreshed invite's first link stopped working");
    const cancelled = await runCli(cli, repo, ["account", "invite", "cancel", made[1].id, "--json"], env);
    assert.equal(cancelled.code, 0, describeRun(cli, cancelled));
    assert.equal((await join(again[0].inviteLink, eve)).status, 404, "a cancelled invite opens nothing");
    const wrongPerson = await join(made[0].inviteLink, eve);
    assert.equal(wrongPerson.status, 403);
    assert.match(wrongPerson.body.error, /sent to zoe@crew\.example/);
    const joined = await join(made[0].inviteLink, zoe);
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    assert.deepEqual(joined.body, { team: { slug: "crew" }, level: "contributor" });
    assert.equal((await join(made[0].inviteLink, zoe)).status, 404, "an invite is used once");
    assert.ok((await api("/accounts/crew/members?levels=contributor")).results.some((m) => m.user.slug === "crew-zoe"));
    assert.deepEqual(rows(await run(["account", "invite", "list"])), []);

    // The shared link gives the team's default role (contributor since the update above); a reset ends the old one.
    const first = await run(["account", "invite", "reset-link"]);
    const second = await run(["account", "invite", "reset-link"]);
    assert.notEqual(first.inviteLink, second.inviteLink);
    assert.equal((await join(first.inviteLink, eve)).status, 404);
    assert.deepEqual((await join(second.inviteLink, eve)).body, { team: { slug: "crew" }, level: "contributor" });
    // Joining never lowers a role: the owner opening the link stays owner.
    assert.deepEqual((await join(second.inviteLink, token)).body, { team: { slug: "crew" }, level: "owner" });

    // Email domains: only one the owner's own address is on, never a public provider's.
    const domainRun = (args) => runCli(cli, repo, ["account", "domain", ...args, "--json"], env);
    const publicDomain = await domainRun(["add", "gmail.com"]);
    assert.notEqual(publicDomain.code, 0);
    assert.match(publicDomain.output, /Public email providers/, describeRun(cli, publicDomain));
    const notTheirs = await domainRun(["add", "elsewhere.example"]);
    assert.notEqual(notTheirs.code, 0);
    assert.match(notTheirs.output, /must be on elsewhere\.example/, describeRun(cli, notTheirs));
    const added = await run(["account", "domain", "add", "Crew.Example"]);
    assert.equal(added.domain, "crew.example");
    assert.deepEqual((await run(["account", "domain", "list"])).map((d) => d.domain), ["crew.example"]);
    const duplicate = await domainRun(["add", "crew.example"]);
    assert.notEqual(duplicate.code, 0);
    const removedDomain = await domainRun(["remove", "crew.example"]);
    assert.equal(removedDomain.code, 0, describeRun(cli, removedDomain));
    assert.deepEqual(await run(["account", "domain", "list"]), []);

    // The team's administration trail, newest first, for its administrators only.
    const audit = await server.api("GET", "_loupe/accounts/crew/audit?perPage=100", { token });
    assert.equal(audit.status, 200, audit.text);
    const actions = audit.body.results.map((entry) => entry.action);
    for (const action of ["member.role", "member.remove", "invite.create", "invite.cancel", "member.join", "domain.add", "domain.remove"]) {
      assert.ok(actions.includes(action), `${action} in ${actions}`);
    }
    assert.equal(actions[0], "domain.remove", "newest first");
    const joins = audit.body.results.filter((entry) => entry.action === "member.join").map((entry) => entry.subject.slug);
    assert.ok(joins.includes("crew-zoe"), `crew-zoe joined: ${joins}`);
    assert.equal(audit.body.pageInfo.total, audit.body.results.length);
    const asMember = await server.api("GET", "_loupe/accounts/crew/audit", { token: zoe });
    assert.ok([401, 403].includes(asMember.status), asMember.text);
  });

  test("latest CLI: review reviewer add, list and remove", async () => {
    const cli = clis.find((c) => c.name === "latest");
    const { repo, number } = await changedBuild(cli, "-reviewers");
    const project = ["--project", "default/default"];
    for (const slug of ["rev-ada", "rev-bo"]) {
      server.admin("user", "create", "--slug", slug, "--name", slug);
      server.admin("member", "add", "--account", "default", "--user", slug, "--role", "member");
    }
    const members = (await server.api("GET", "/accounts/default/members?perPage=100", { token: server.personalAccessToken })).body;
    const idOf = (slug) => members.results.find((m) => m.user.slug === slug).user.id;
    const run = async (args) => {
      const result = await runCli(cli, repo, ["review", "reviewer", ...args, "--json", ...project], userEnv());
      assert.equal(result.code, 0, describeRun(cli, result));
      return JSON.parse(result.stdout);
    };
    const slugs = (answer) => answer.reviewers.map((r) => r.slug);
    assert.deepEqual(slugs(await run(["add", String(number), idOf("rev-ada"), idOf("rev-bo")])), ["rev-ada", "rev-bo"]);
    // Already requested: left as it was.
    assert.deepEqual(slugs(await run(["add", String(number), idOf("rev-ada")])), ["rev-ada", "rev-bo"]);
    assert.deepEqual(slugs(await run(["list", String(number)])), ["rev-ada", "rev-bo"]);
    assert.deepEqual(slugs(await run(["remove", String(number), idOf("rev-ada")])), ["rev-bo"]);
    const listed = await server.api("GET", `/projects/default/default/builds/${number}/reviewers`, { token: server.personalAccessToken });
    assert.deepEqual(slugs(listed.body), ["rev-bo"]);
  });

  test("a project's tokens rotate without downtime: a new one uploads, then the old is revoked", async () => {
    const cli = clis.find((c) => c.name === "latest");
    server.admin("user", "create", "--slug", "rot-owner", "--name", "rot-owner");
    server.admin("account", "create", "--slug", "rot", "--name", "Rot", "--owner", "rot-owner");
    const oldToken = server.admin("project", "create", "--account", "rot", "--name", "app").token;
    assert.match(oldToken, /^argos_[a-z0-9]{34}$/);
    const owner = JSON.stringify(server.admin("token", "create", "--user", "rot-owner", "--account", "rot")).match(/arp_[A-Za-z0-9_]{36}/)[0];
    const tokens = "_loupe/projects/rot/app/tokens";
    const listed = async () => (await server.api("GET", tokens, { token: owner })).body.tokens;
    assert.equal((await listed()).length, 1);
    const made = await server.api("POST", tokens, { token: owner });
    assert.equal(made.status, 201, made.text);
    assert.match(made.body.token, /^argos_[a-z0-9]{34}$/);
    assert.equal((await listed()).length, 2);
    assert.ok(!(await listed()).some((token) => "token" in token), "the list never shows a secret");

    const upload = async (token, name) => {
      const repo = new GitRepo({ branch: `rot-${name}` });
      const dir = writeScreens(repo, `rot-${name}`, { "page.png": patternPng(`rot-${name}`) });
      return runCli(cli, repo, ["upload", dir, "--build-name", name], { ARGOS_TOKEN: token, ARGOS_API_BASE_URL: server.apiBaseUrl });
    };
    // Both tokens work while CI moves to the new one.
    for (const [token, name] of [[oldToken, "old"], [made.body.token, "new"]]) {
      const run = await upload(token, name);
      assert.equal(run.code, 0, describeRun(cli, run));
    }
    const old = (await listed()).find((token) => oldToken.startsWith(token.prefix));
    assert.ok(old.lastUsedAt, "the old token's last use is shown");
    const revoked = await server.api("DELETE", `${tokens}/${old.id}`, { token: owner });
    assert.equal(revoked.status, 200, revoked.text);
    assert.notEqual((await upload(oldToken, "after")).code, 0, "the revoked token uploads nothing");
    assert.equal((await upload(made.body.token, "after-new")).code, 0);
    // Only the project's administrators manage its tokens; a project token cannot.
    assert.equal((await server.api("GET", tokens, { token: made.body.token })).status, 401);
    assert.equal((await server.api("DELETE", `${tokens}/${old.id}`, { token: owner })).status, 404);
  });

  test("a team owner deletes a project with its builds; a member administering it may not", async () => {
    const cli = clis.find((c) => c.name === "latest");
    server.admin("user", "create", "--slug", "del-owner", "--name", "del-owner");
    server.admin("user", "create", "--slug", "del-member", "--name", "del-member");
    server.admin("account", "create", "--slug", "del", "--name", "Del", "--owner", "del-owner");
    server.admin("member", "add", "--account", "del", "--user", "del-member", "--role", "member");
    const created = server.admin("project", "create", "--account", "del", "--name", "doomed");
    const personal = (user) => JSON.stringify(server.admin("token", "create", "--user", user, "--account", "del")).match(/arp_[A-Za-z0-9_]{36}/)[0];
    const owner = personal("del-owner");
    const member = personal("del-member");
    const repo = new GitRepo({ branch: "doomed" });
    const dir = writeScreens(repo, "doomed", { "page.png": patternPng("doomed") });
    const run = await runCli(cli, repo, ["upload", dir], { ARGOS_TOKEN: created.token, ARGOS_API_BASE_URL: server.apiBaseUrl });
    assert.equal(run.code, 0, describeRun(cli, run));
    const { number } = createdBuildNumber(run);
    for (let tries = 0; tries < 300; tries += 1) {
      const build = await server.api("GET", `/projects/del/doomed/builds/${number}`, { token: owner });
      if (!["pending", "progress"].includes(build.body.status)) break;
      await new Promise((done) => setTimeout(done, 100));
    }

    const remove = (token) => server.api("DELETE", "_loupe/projects/del/doomed", { token });
    const byMember = await remove(member);
    assert.equal(byMember.status, 403, byMember.text);
    assert.match(byMember.body.error, /owners of del/);
    assert.equal((await remove(created.token)).status, 401, "a project token never administers");
    assert.equal((await server.api("GET", "/projects/del/doomed", { token: owner })).status, 200, "a refusal deletes nothing");

    assert.equal((await remove(owner)).status, 204);
    assert.equal((await server.api("GET", "/projects/del/doomed", { token: owner })).status, 404);
    assert.equal((await server.api("GET", `/projects/del/doomed/builds/${number}`, { token: owner })).status, 404);
    assert.equal((await server.api("GET", "/project", { token: created.token })).status, 401, "its tokens went with it");
    if (server.canQuery) {
      const left = server.query(`SELECT (SELECT COUNT(*) FROM builds WHERE project_id = ${created.project.id}) + (SELECT COUNT(*) FROM project_blobs WHERE project_id = ${created.project.id})`);
      assert.equal(Number(left[0][0]), 0, "no build and no blob held by the project: its files are the sweep's");
    }
    const audit = await server.api("GET", "_loupe/accounts/del/audit", { token: owner });
    assert.equal(audit.body.results[0].action, "project.delete");
    assert.equal(audit.body.results[0].before, "doomed");
    // The name is free again.
    assert.equal(server.admin("project", "create", "--account", "del", "--name", "doomed").project.name, "doomed");
  });

  test("latest CLI: project update, and project contributor list, set, remove", async () => {
    const cli = clis.find((c) => c.name === "latest");
    server.admin("user", "create", "--slug", "proj-owner", "--name", "proj-owner");
    server.admin("account", "create", "--slug", "proj", "--name", "Proj", "--owner", "proj-owner");
    server.admin("project", "create", "--account", "proj", "--name", "site");
    server.admin("user", "create", "--slug", "proj-kim", "--name", "proj-kim");
    server.admin("member", "add", "--account", "proj", "--user", "proj-kim", "--role", "contributor");
    const created = server.admin("token", "create", "--user", "proj-owner", "--account", "proj");
    const token = JSON.stringify(created).match(/arp_[A-Za-z0-9_]{36}/)[0];
    const repo = new GitRepo({ branch: "proj-admin" });
    const env = { ARGOS_TOKEN: token, ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_PROJECT: "proj/site" };
    const run = async (args, project = "proj/site") => {
      const result = await runCli(cli, repo, [...args, "--json"], { ...env, ARGOS_PROJECT: project });
      assert.equal(result.code, 0, describeRun(cli, result));
      return result.stdout.trim() ? JSON.parse(result.stdout) : null;
    };
    const api = async (path) => {
      const answer = await server.api("GET", path, { token });
      assert.equal(answer.status, 200, answer.text);
      return answer.body;
    };

    // The server runs without the git plugin: its fields (summaryCheck, tokenlessAuthEnabled)
    // are not part of the project, so only the core's, builds' and deployments' fields change.
    const updated = await run(["project", "update", "--default-user-level", "viewer", "--deployments", "false",
      "--deployment-auth", "public", "--auto-approved-branch-glob", "release/*", "--private", "false",
      "--ignore-changes", "true", "--auto-ignore-after", "4", "--default-base-branch", "trunk"]);
    assert.equal(updated.defaultUserLevel, "viewer");
    assert.equal(updated.deploymentEnabled, false);
    assert.equal(updated.deploymentAuth, "public");
    assert.equal(updated.autoApprovedBranchGlob, "release/*");
    assert.equal(updated.private, false);
    assert.equal(updated.defaultBaseBranch, "trunk");
    assert.deepEqual(updated.ignoreConfig, { enabled: true, autoIgnore: { changes: 4 } });
    const shown = await api("/projects/proj/site");
    assert.deepEqual(shown, updated);

    // Retention is Loupe's own field (no CLI flag): 0..36500 days, null for the server's default.
    const patch = (body) => server.api("PATCH", "/projects/proj/site", { token, body });
    assert.equal((await patch({ retentionDays: -1 })).status, 400);
    assert.equal((await patch({ retentionDays: 36501, autoApprovedBranchGlob: "x/*" })).status, 400);
    assert.equal((await api("/projects/proj/site")).autoApprovedBranchGlob, "release/*", "a refused change saves nothing");
    assert.equal((await patch({ retentionDays: 90 })).body.retentionDays, 90);
    assert.equal((await api("/projects/proj/site")).retentionDays, 90);
    assert.equal((await patch({ retentionDays: null })).body.retentionDays, updated.retentionDays);

    const renamed = await run(["project", "update", "--name", "portal"]);
    assert.equal(renamed.name, "portal");
    assert.equal((await api("/projects/proj/portal")).name, "portal");
    // The CLI prints the server's refusal of a bad value.
    const refused = await runCli(cli, repo, ["project", "update", "--name", "bad name", "--json"], { ...env, ARGOS_PROJECT: "proj/portal" });
    assert.notEqual(refused.code, 0, describeRun(cli, refused));

    const members = await api("/accounts/proj/members");
    const kimId = members.results.find((m) => m.user.slug === "proj-kim").user.id;
    const set = await run(["project", "contributor", "set", kimId, "--level", "reviewer"], "proj/portal");
    assert.equal(set.level, "reviewer");
    assert.equal(set.user.slug, "proj-kim");
    const listed = await run(["project", "contributor", "list"], "proj/portal");
    const contributors = Array.isArray(listed) ? listed : listed.results;
    assert.deepEqual(contributors.map((c) => [c.user.slug, c.level]), [["proj-kim", "reviewer"]]);
    await run(["project", "contributor", "remove", kimId], "proj/portal");
    assert.equal((await api("/projects/proj/portal/contributors")).pageInfo.total, 0);

    // Transfer: to another account its caller administers, under a new name; grants of people
    // outside the new account are dropped; a taken name or an account not administered refused.
    await run(["project", "contributor", "set", kimId, "--level", "reviewer"], "proj/portal");
    server.admin("account", "create", "--slug", "proj2", "--name", "Proj 2", "--owner", "proj-owner");
    server.admin("account", "create", "--slug", "kim-team", "--name", "Kim", "--owner", "proj-kim");
    server.admin("member", "add", "--account", "kim-team", "--user", "proj-owner", "--role", "member");
    server.admin("project", "create", "--account", "proj", "--name", "web");
    const wide = JSON.stringify(server.admin("token", "create", "--user", "proj-owner", "--account", "proj",
      "--account", "proj2", "--account", "kim-team")).match(/arp_[A-Za-z0-9_]{36}/)[0];
    const transfer = (project, args) =>
      runCli(cli, repo, ["project", "transfer", ...args, "--json"], { ...env, ARGOS_TOKEN: wide, ARGOS_PROJECT: project });
    const moved = await transfer("proj/portal", ["--to", "proj2", "--name", "web"]);
    assert.equal(moved.code, 0, describeRun(cli, moved));
    assert.equal(JSON.parse(moved.stdout).name, "web");
    assert.equal((await server.api("GET", "/projects/proj2/web", { token: wide })).status, 200);
    assert.equal((await server.api("GET", "/projects/proj/portal", { token: wide })).status, 404);
    assert.equal((await server.api("GET", "/projects/proj2/web/contributors", { token: wide })).body.pageInfo.total, 0,
      "kim is not in proj2: her grant went");
    const taken = await transfer("proj2/web", ["--to", "proj"]);
    assert.notEqual(taken.code, 0);
    assert.match(taken.output, /already used/, describeRun(cli, taken));
    const notAdmin = await transfer("proj2/web", ["--to", "kim-team"]);
    assert.notEqual(notAdmin.code, 0);
    assert.match(notAdmin.output, /not an administrator of kim-team/, describeRun(cli, notAdmin));
    const outOfScope = await transfer("proj2/web", ["--to", "default"]);
    assert.notEqual(outOfScope.code, 0, describeRun(cli, outOfScope));

    // Each change left its row in the account's trail, refusals none.
    const trail = async (account) => (await server.api("GET", `_loupe/accounts/${account}/audit?perPage=100`, { token: wide })).body.results;
    const proj = await trail("proj");
    const updates = proj.filter((entry) => entry.action === "project.update").reverse();
    const first = { before: JSON.parse(updates[0].before), after: JSON.parse(updates[0].after) };
    assert.equal(first.before.autoApprovedBranchGlob, "main");
    assert.equal(first.after.autoApprovedBranchGlob, "release/*");
    assert.equal(first.after.defaultBaseBranch, "trunk");
    assert.equal(first.after.project, "site");
    assert.equal(updates[0].actor.slug, "proj-owner");
    assert.ok(updates.some((entry) => JSON.parse(entry.after).name === "portal"), "the rename");
    assert.ok(!updates.some((entry) => JSON.parse(entry.after).name === "bad name"), "a refusal records nothing");
    const levels = proj.filter((entry) => entry.action === "project.contributor").reverse();
    assert.deepEqual(levels.map((entry) => [entry.subject.slug, entry.before, entry.after]), [
      ["proj-kim", null, "portal: reviewer"],
      ["proj-kim", "portal: reviewer", null],
      ["proj-kim", null, "portal: reviewer"],
    ]);
    for (const account of ["proj", "proj2"]) {
      const moves = (await trail(account)).filter((entry) => entry.action === "project.transfer");
      assert.deepEqual(moves.map((entry) => [entry.before, entry.after]), [["proj/portal", "proj2/web"]], account);
    }
  });

  test("latest CLI: test list, get and changes, change list, unignore and ignore, test comments and subscriptions", async () => {
    const cli = clis.find((c) => c.name === "latest");
    const name = "tests-latest";
    const repo = new GitRepo({ branch: name });
    repo.git("checkout", "-q", "main");
    const projectEnv = { ARGOS_TOKEN: server.projectToken, ARGOS_API_BASE_URL: server.apiBaseUrl };
    // Four reference builds (main) in which page.png flips between two pictures: one change
    // that comes back three times (the third time, Loupe's auto-ignore ignores it).
    const plain = patternPng("tests-page");
    const painted = patternPng("tests-page", { paint: { x: 10, y: 8, width: 12, height: 10 } });
    for (const [i, png] of [plain, painted, plain, painted].entries()) {
      if (i > 0) {
        repo.git("commit", "-q", "--allow-empty", "-m", `run ${i}`);
        repo.git("push", "-q", "origin", "main");
      }
      const dir = writeScreens(repo, `tests-${i}`, { "page.png": png, "stable.png": patternPng("tests-stable") });
      const run = await runCli(cli, repo, ["upload", dir, "--build-name", name], projectEnv);
      assert.equal(run.code, 0, describeRun(cli, run));
      await waitForConclusion(server, createdBuildNumber(run).number);
    }
    const json = async (args, env = projectEnv) => {
      const run = await runCli(cli, repo, [...args, "--json"], env);
      assert.equal(run.code, 0, describeRun(cli, run));
      return JSON.parse(run.stdout);
    };

    // The project token names its project: no --project needed. Flakiest first.
    const tests = await json(["test", "list", "--build-name", name, "--metrics-period", "24h"]);
    assert.deepEqual(tests.map((t) => [t.name, t.buildName]), [["page.png", name], ["stable.png", name]]);
    const [page, stable] = tests;
    assert.match(page.id, /^DEFAULT-[0-9A-Z]{4,}$/);
    assert.equal(page.metrics.changes, 3);
    assert.ok(page.metrics.flakiness > stable.metrics.flakiness, JSON.stringify(tests));
    assert.deepEqual((await json(["test", "list", "--search", "STAB", "--build-name", name])).map((t) => t.id), [stable.id]);
    const human = await runCli(cli, repo, ["test", "list", "--build-name", name, "--limit", "1"], projectEnv);
    assert.equal(human.code, 0, describeRun(cli, human));
    assert.match(human.stdout, new RegExp(`page\\.png \\(${name}\\)\\n  ID: ${page.id}`));
    assert.doesNotMatch(human.stdout, /stable/);

    const details = await json(["test", "get", page.id]);
    assert.equal(details.status, "ongoing");
    assert.deepEqual(details.metrics, (await json(["test", "list", "--build-name", name]))[0].metrics);
    assert.ok(details.series.length > 0);
    assert.ok(details.firstSeenChange.buildNumber < details.lastSeenChange.buildNumber);
    const shown = await runCli(cli, repo, ["test", "get", page.id], projectEnv);
    assert.match(shown.stdout, new RegExp(`Test ${page.id} \\[ongoing\\]\\nName: page\\.png`));

    const changes = await json(["test", "changes", page.id]);
    assert.equal(changes.length, 1);
    const [change] = changes;
    assert.equal(change.occurrences, 3);
    assert.equal(change.ignored, true);
    assert.equal(change.diff.test.id, page.id);
    assert.ok(change.lastSeen.buildNumber > change.firstSeen.buildNumber);

    // Ignored changes, read with the project token; unignore and ignore with a personal token.
    const ignored = await json(["change", "list"]);
    assert.ok(ignored.some((c) => c.id === change.id && c.test.id === page.id), JSON.stringify(ignored));
    const project = ["--project", "default/default"];
    assert.equal((await json(["change", "unignore", change.id, ...project], userEnv())).ignored, false);
    assert.deepEqual((await json(["test", "changes", page.id, "--ignored", "false"])).map((c) => c.id), [change.id]);
    assert.deepEqual(await json(["test", "changes", page.id, "--ignored", "true"]), []);
    assert.ok(!(await json(["change", "list"])).some((c) => c.id === change.id));
    assert.equal((await json(["change", "ignore", change.id, ...project], userEnv())).ignored, true);
    assert.deepEqual((await json(["test", "changes", page.id, "--ignored", "true"])).map((c) => c.id), [change.id]);

    // Comments on the test itself (not on one build), with a personal token.
    const person = async (args) => json([...args, ...project], userEnv());
    const root = await person(["test", "comment", "create", page.id, "--body", "Flips on **every** run"]);
    assert.equal(root.testId, page.id);
    assert.equal(root.buildId, null);
    const reply = await person(["test", "comment", "create", page.id, "--body", "A clock in the header", "--reply-to", root.id]);
    assert.equal(reply.threadId, root.id);
    assert.equal((await person(["test", "comment", "get", page.id, reply.id])).text, "A clock in the header");
    assert.deepEqual((await person(["test", "comment", "react", page.id, root.id, "👀"])).reactions.map((r) => [r.emoji, r.count]), [["👀", 1]]);
    assert.deepEqual((await person(["test", "comment", "unreact", page.id, root.id, "👀"])).reactions, []);
    const resolvedThread = await person(["test", "comment", "resolve", page.id, reply.id]);
    assert.equal(resolvedThread.id, root.id, "resolving through a reply answers the root");
    assert.ok(resolvedThread.resolvedAt);
    assert.equal((await person(["test", "comment", "unresolve", page.id, root.id])).resolvedAt, null);
    assert.ok((await person(["test", "comment", "edit", page.id, reply.id, "--body", "The clock, masked soon"])).editedAt);
    await person(["test", "comment", "unsubscribe", page.id, root.id]);
    await person(["test", "comment", "subscribe", page.id, root.id]);
    assert.deepEqual((await person(["test", "comment", "list", page.id])).map((c) => c.id), [root.id, reply.id]);
    await person(["test", "comment", "delete", page.id, reply.id]);
    assert.deepEqual((await person(["test", "comment", "list", page.id])).map((c) => c.id), [root.id]);
    assert.equal((await person(["test", "unsubscribe", page.id])).subscribed, false);
    assert.equal((await person(["test", "subscribe", page.id])).subscribed, true);
    // The build that holds the test does not list the test's comments.
    const buildComments = await server.api("GET", `projects/default/default/builds/${details.lastSeenChange.buildNumber}/comments`, {
      token: server.personalAccessToken,
    });
    assert.deepEqual(buildComments.body, []);

    // An unknown test: the CLI reports the server's error.
    const unknown = await runCli(cli, repo, ["test", "get", "DEFAULT-ZZZZZZ"], projectEnv);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.output, /Test not found/);
  });
});
