// Shared pieces of the test files: skip reason, API look-ups, database look-ups.
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GitRepo, missingNodeModules } from "./cli.mjs";
import { logTail } from "./checks.mjs";
import { missingPrerequisite } from "./server.mjs";

/** Why this suite is skipped (printed), or false. */
export function skipReason() {
  const reason = missingNodeModules() ?? missingPrerequisite();
  if (reason) console.log(`# argos CLI e2e skipped: ${reason}`);
  return reason ?? false;
}

/** The build number in the CLI's "Build created: <url>" line (url ends in /builds/<n>). */
export function createdBuildNumber(run) {
  const match = /Build created: (\S+\/builds\/(\d+))\b/.exec(run.output);
  return match ? { url: match[1], number: Number(match[2]) } : null;
}

/** owner and project slug of the bootstrap project token. */
export async function tokenProject(server) {
  const response = await server.api("GET", "project");
  assert.equal(response.status, 200, `GET /v2/project: ${response.status} ${response.text}`);
  return { owner: response.body.account.slug, name: response.body.name };
}

/** GET /projects/{owner}/{project}/builds/{n} with the personal access token; asserts 200. */
export async function getBuild(server, number) {
  const { owner, name } = await tokenProject(server);
  const path = `projects/${owner}/${name}/builds/${number}`;
  const response = await server.api("GET", path, { token: server.personalAccessToken });
  assert.equal(response.status, 200, `GET /v2/${path}: ${response.status} ${response.text}\n${logTail(server)}`);
  return response.body;
}

/** The Build JSON fields every build must carry, as Argos serializes a build. */
export function assertBuildShape(build, { number, commit, branch }) {
  assert.match(build.id, /^\d+$/, "build.id is a decimal string");
  assert.equal(build.number, number);
  assert.deepEqual(build.head, { sha: commit, branch });
  for (const field of ["base", "status", "conclusion", "stats", "metadata", "url", "notification"]) {
    assert.ok(field in build, `build JSON has "${field}": ${JSON.stringify(build)}`);
  }
  assert.match(build.url, new RegExp(`/builds/${number}$`));
}

/**
 * Screenshots stored for a build, read from the builds plugin's tables: there is no screenshot
 * list in the API before processing, and this is the only way to see names and keys. Returns
 * null when no SQL client is available.
 */
export function storedScreenshots(server, buildId) {
  if (!server.canQuery) return null;
  assert.match(String(buildId), /^\d+$/);
  return server
    .query(`SELECT name, blob_key FROM screenshots WHERE build_id = ${buildId}`)
    .map(([name, key]) => ({ name, key }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)); // code-point order on both databases
}

/** The build row's finalization state (complete, screenshot_count, type, batch_count). */
export function storedBuildState(server, buildId) {
  if (!server.canQuery) return null;
  assert.match(String(buildId), /^\d+$/);
  const [row] = server.query(
    `SELECT complete, screenshot_count, COALESCE(type, ''), batch_count, COALESCE(total_batch, 0) FROM builds WHERE id = ${buildId}`);
  assert.ok(row, `build row ${buildId} exists`);
  return {
    complete: Number(row[0]) === 1,
    screenshotCount: Number(row[1]),
    type: row[2] || null,
    batchCount: Number(row[3]),
    totalBatch: Number(row[4]),
  };
}

/** Whether the server answers POST /baseline rather than 404. */
export async function baselineServed(server) {
  const response = await server.api("POST", "baseline", { body: { commits: ["0".repeat(40)] } });
  return response.status !== 404;
}

/**
 * The checkout a CLI runs in. The 4.x CLI fetches the head and base branches from origin and
 * fails without them; the latest CLI then calls POST /baseline, so until the server has it the
 * latest CLI gets a checkout without `main` (it then looks up no baseline).
 */
export async function checkoutFor(cli, server) {
  if (cli.name === "4.x" || (await baselineServed(server))) return new GitRepo();
  console.log("# POST /v2/baseline answers 404: the latest CLI runs without a main branch");
  return new GitRepo({ withMain: false });
}

/** Replaces <repo>/<folder> with exactly `files` ({name: bytes}); returns its path. */
export function writeScreens(repo, folder, files) {
  const dir = join(repo.root, folder);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  return dir;
}

/** Polls the build until it is neither pending nor in progress; returns it. */
export async function waitForConclusion(server, number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const build = await getBuild(server, number);
    if (!["pending", "progress"].includes(build.status)) return build;
    if (Date.now() > deadline) assert.fail(`build ${number} still ${build.status}\n${logTail(server)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
