// Builds for the browser tests: uploaded by the real Argos CLI (4.x, on the system node) from
// the fixture checkout, or created straight through the API when the CLI is not under test.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { clis, runCli } from "../../e2e/support/cli.mjs";

export const cli = clis.find((c) => c.name === "4.x");

/** Polls the build until it leaves pending/progress; returns it. */
export async function waitForConclusion(server, number) {
  const path = `projects/default/default/builds/${number}`;
  for (const deadline = Date.now() + 60_000; ; ) {
    const response = await server.api("GET", path, { token: server.personalAccessToken });
    assert.equal(response.status, 200, response.text);
    if (!["pending", "progress"].includes(response.body.status)) return response.body;
    if (Date.now() > deadline) assert.fail(`${path} still ${response.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `argos upload` of `files` ({name: PNG bytes}) on `branch`; returns the build URL it printed. */
export async function uploadWithCli(server, repo, branch, files) {
  repo.git("checkout", "-q", branch);
  const dir = repo.screens(`shots-${branch.replace(/\W/g, "-")}`, files);
  const run = await runCli(cli, repo, ["upload", dir], { ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken });
  assert.equal(run.code, 0, run.output);
  const url = /Build created: (\S+\/builds\/(\d+))\b/.exec(run.output);
  assert.ok(url, run.output);
  await waitForConclusion(server, url[2]);
  return url[1];
}

export const screenshotsOf = (files) =>
  Object.entries(files).map(([name, bytes]) => ({ name, bytes, key: createHash("sha256").update(bytes).digest("hex") }));

/** POST /builds and the uploads to its signed URLs; returns {build, shots} (not finalized). */
export async function createBuild(server, { commit, branch, referenceCommit }, files) {
  const shots = screenshotsOf(files);
  const created = await server.api("POST", "builds", { body: { commit, branch, referenceCommit, screenshotKeys: shots.map((s) => s.key) } });
  assert.equal(created.status, 201, created.text);
  for (const { key, putUrl } of created.body.screenshots) {
    const put = await fetch(putUrl, { method: "PUT", headers: { "Content-Type": "image/png" }, body: shots.find((s) => s.key === key).bytes });
    assert.equal(put.status, 200);
  }
  return { build: created.body.build, shots };
}

/** Finalizes a build made by createBuild (PUT /builds/{id} with its screenshots). */
export async function finalizeBuild(server, { build, shots }) {
  const finalized = await server.api("PUT", `builds/${build.id}`, { body: { screenshots: shots.map(({ name, key }) => ({ name, key })) } });
  assert.equal(finalized.status, 200, finalized.text);
}
