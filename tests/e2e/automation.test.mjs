// Automation rules with the latest official CLI: `argos automation list|create|get|update|
// deactivate` against a Loupe with the automation plugin, each answer checked through the API;
// and a build the same CLI uploads firing the rule, posted to a local stand-in of Slack's Web
// API (chat.postMessage with the bot token) once.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";
import { clis, describeRun, GitRepo, node22, runCli } from "./support/cli.mjs";
import { patternPng } from "./support/png.mjs";
import { LoupeServer } from "./support/server.mjs";
import { createdBuildNumber, skipReason, waitForConclusion, writeScreens } from "./support/suite.mjs";

/** A Slack Web API stand-in: records chat.postMessage calls that carry the bot token. */
async function startSlack() {
  const posts = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const authorized = request.headers.authorization === "Bearer xoxb-e2e";
      const message = JSON.parse(body);
      const valid = request.url === "/api/chat.postMessage" && typeof message.channel === "string" &&
        typeof message.text === "string" && Array.isArray(message.blocks) && message.blocks.length > 0;
      if (authorized && valid) posts.push(message);
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(authorized && valid ? { ok: true } : { ok: false, error: "invalid_arguments" }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { posts, url: `http://127.0.0.1:${server.address().port}/api`, close: () => server.close() };
}

describe("automation rules with the latest CLI", { skip: skipReason() }, () => {
  let server;
  let slack;
  before(async () => {
    slack = await startSlack();
    server = await LoupeServer.start({
      node22,
      settings: [
        "plugins.enabled=auth,builds,reviews,automation",
        `plugins.automation.slack_api_url=${slack.url}`,
        "plugins.automation.slack_bot_token=xoxb-e2e",
      ],
    });
  });
  after(async () => {
    await server?.stop();
    slack?.close();
  });

  const cli = clis.find((c) => c.name === "latest");
  const project = ["--project", "default/default"];
  const userEnv = () => ({ ARGOS_TOKEN: server.personalAccessToken, ARGOS_API_BASE_URL: server.apiBaseUrl });

  test("automation list, create, get, update, deactivate; a matching build posts to Slack once", async () => {
    const repo = new GitRepo({ branch: "automation-e2e" });
    const run = async (args) => {
      const result = await runCli(cli, repo, ["automation", ...args, ...project], userEnv());
      assert.equal(result.code, 0, describeRun(cli, result));
      return result;
    };
    assert.match((await run(["list"])).stdout, /No automation rules found\./);

    const definition = {
      name: "Notify on e2e builds",
      events: ["build.completed"],
      conditions: [{ type: "build-name", value: "automation-e2e" }, { glob: { type: "build-branch", value: "main" } }],
      actions: [{ type: "sendSlackMessage", payload: { name: "argos-alerts" } }],
    };
    const created = JSON.parse((await run(["create", "--definition", JSON.stringify(definition), "--json"])).stdout);
    assert.equal(created.active, true);
    assert.deepEqual(created.conditions, definition.conditions);
    assert.deepEqual(created.actions, [{ action: "sendSlackMessage", actionPayload: { slackId: "", name: "argos-alerts" } }]);

    const shown = await run(["get", created.id]);
    assert.match(shown.stdout, new RegExp(`Rule Notify on e2e builds \\[active\\]\\nID: ${created.id}`));
    assert.match(shown.stdout, /Conditions: build-name is "?automation-e2e"? AND build-branch matches main/);
    assert.match((await run(["list", "--active", "true"])).stdout, new RegExp(`ID: ${created.id}`));

    const updated = JSON.parse((await run(["update", created.id, "--definition",
      JSON.stringify({ ...definition, name: "Notify on e2e builds (updated)" }), "--json"])).stdout);
    assert.equal(updated.name, "Notify on e2e builds (updated)");
    const api = await server.api("GET", `projects/default/default/automation-rules/${created.id}`, { token: server.personalAccessToken });
    assert.equal(api.status, 200, api.text);
    assert.equal(api.body.name, "Notify on e2e builds (updated)");

    // A build the CLI uploads on main fires the rule: one Slack post.
    repo.git("checkout", "-q", "main");
    const screens = writeScreens(repo, "automation", { "page.png": patternPng("automation-e2e") });
    const upload = await runCli(cli, repo, ["upload", screens, "--build-name", "automation-e2e"],
      { ARGOS_TOKEN: server.projectToken, ARGOS_API_BASE_URL: server.apiBaseUrl });
    assert.equal(upload.code, 0, describeRun(cli, upload));
    const { number } = createdBuildNumber(upload);
    await waitForConclusion(server, number);
    const headline = `Build #${number} (automation-e2e) completed`;
    const deadline = Date.now() + 30_000;
    while (!slack.posts.some((post) => post.text === headline) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(slack.posts.filter((post) => post.text === headline).map((post) => post.channel), ["argos-alerts"]);

    const deactivated = JSON.parse((await run(["deactivate", created.id, "--json"])).stdout);
    assert.equal(deactivated.active, false);
    assert.match((await run(["list", "--active", "false"])).stdout, new RegExp(`\\[inactive\\]\\n  ID: ${created.id}`));
    assert.match((await run(["list", "--active", "true"])).stdout, /No automation rules found\./);
  });
});
