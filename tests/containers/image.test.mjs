// The Loupe image as an operator runs it: `podman run` with a published port, a named volume and
// LOUPE_* variables only; the official Argos CLI (latest, on node 22) uploads a reference build
// and a branch build that concludes changes-detected; the health check; SIGTERM exits 0; a new
// container on the same volume keeps the database, the blobs and the tokens.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { clis, describeRun, GitRepo, runCli } from "../e2e/support/cli.mjs";
import { patternPng } from "../e2e/support/png.mjs";
import { createdBuildNumber, getBuild, tokenProject, waitForConclusion, writeScreens } from "../e2e/support/suite.mjs";
import {
  bootstrapOf, ContainerServer, freePort, loupeImage, missingPrerequisite, podman, podmanRun, waitForStatus,
} from "./support.mjs";

const skip = missingPrerequisite();
if (skip) console.log(`# image tests skipped: ${skip}`);
const cli = clis.find((candidate) => candidate.name === "latest");

describe(`the image ${loupeImage}`, { skip: skip ?? false }, () => {
  const suffix = randomBytes(4).toString("hex");
  const name = `loupe-image-test-${suffix}`;
  const volume = `loupe-image-test-${suffix}`;
  let port;
  let server;
  let repo;
  let branchBuild;

  /** Starts the container on the volume; resolves once /healthz answers through the published port. */
  async function start() {
    podman("run", "--detach", "--name", name, "--publish", `127.0.0.1:${port}:8080`,
      "--volume", `${volume}:/var/lib/loupe`,
      "--env", `LOUPE_HTTP_PUBLIC_URL=http://127.0.0.1:${port}`,
      "--env", "LOUPE_LOG_LEVEL=debug",
      "--env", "LOUPE_JOBS_WORKERS=2",
      "--env", "LOUPE_PLUGINS_ENABLED=auth,builds,reviews,web",
      loupeImage);
    await waitForStatus(`http://127.0.0.1:${port}/healthz`, 200, { describe: () => podmanRun("logs", name).stderr });
  }

  async function stop() {
    podman("stop", "--time", "45", name);
    const state = JSON.parse(podman("inspect", name))[0].State;
    podman("rm", name);
    return state;
  }

  const upload = async (files, branch) => {
    repo.git("checkout", "-q", branch);
    const dir = writeScreens(repo, "screens", files);
    const run = await runCli(cli, repo, ["upload", dir, "--build-name", "image"], {
      ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken,
    });
    assert.equal(run.code, 0, describeRun(cli, run));
    const created = createdBuildNumber(run);
    assert.ok(created, describeRun(cli, run));
    assert.ok(created.url.startsWith(`http://127.0.0.1:${port}/`),
      `the build URL uses LOUPE_HTTP_PUBLIC_URL from the environment: ${created.url}`);
    return waitForConclusion(server, created.number, 120_000);
  };
  const reference = { "same.png": patternPng("image/same"), "changed.png": patternPng("image/changed") };
  const branch = {
    "same.png": reference["same.png"],
    "changed.png": patternPng("image/changed", { paint: { x: 10, y: 8, width: 12, height: 10 } }),
  };

  before(async () => {
    port = await freePort();
    podman("volume", "create", volume);
    await start();
    const credentials = bootstrapOf(name);
    assert.ok(credentials?.projectToken, "the first start wrote bootstrap.json into the volume");
    server = new ContainerServer({ url: `http://127.0.0.1:${port}`, containers: [name], credentials });
    repo = new GitRepo();
  });

  after(() => {
    podmanRun("rm", "--force", "--time", "0", name);
    podmanRun("volume", "rm", "--force", volume);
  });

  test("image configuration: non-root, loupe serve, one volume, health check, no compiler", () => {
    const [image] = JSON.parse(podman("image", "inspect", loupeImage));
    const config = image.Config;
    assert.equal(config.User, "999:999");
    assert.deepEqual(config.Entrypoint, ["/usr/bin/loupe", "--config", "/etc/loupe/loupe.properties"]);
    assert.deepEqual(config.Cmd, ["serve"]);
    assert.deepEqual(Object.keys(config.Volumes ?? {}), ["/var/lib/loupe"]);
    assert.deepEqual(Object.keys(config.ExposedPorts ?? {}), ["8080/tcp"]);
    assert.match(JSON.stringify(image.Healthcheck ?? config.Healthcheck), /loupe-healthcheck/);
    assert.equal(image.RootFS.Layers.length, 1, "one layer");

    const identity = podman("run", "--rm", "--entrypoint", "id", loupeImage).trim();
    assert.match(identity, /^uid=999\(loupe\) gid=999\(loupe\)/);
    const tools = podman("run", "--rm", "--entrypoint", "/bin/sh", loupeImage, "-c",
      "for t in cc c++ gcc g++ cpp clang ld as make cmake; do command -v $t; done; " +
      "dpkg-query -W -f '${Package}\\n' | grep -E '^(gcc|g\\+\\+|cpp|clang|binutils|libgcc-[0-9]+-dev|libc6-dev|build-essential)(-[0-9.]+)?$'; true").trim();
    assert.equal(tools, "", `no compiler or build tool in the image:\n${tools}`);
    const ownership = podman("run", "--rm", "--entrypoint", "stat", loupeImage, "-c", "%U:%G %a", "/var/lib/loupe",
      "/etc/loupe/loupe.properties").trim().split("\n");
    assert.deepEqual(ownership, ["loupe:loupe 750", "root:loupe 640"]);
  });

  test("it runs from the environment alone and is healthy", () => {
    const check = podmanRun("healthcheck", "run", name);
    assert.equal(check.code, 0, `podman healthcheck run: ${check.stdout}${check.stderr}`);
    // `loupe plugins` in the container: the same environment, one "name version path" line each.
    const plugins = podman("exec", name, "loupe", "--config", "/etc/loupe/loupe.properties", "plugins")
      .trim().split("\n").map((line) => line.split(" "));
    assert.deepEqual(plugins.map(([plugin]) => plugin).sort(), ["auth", "builds", "reviews", "web"],
      "LOUPE_PLUGINS_ENABLED chose the plugins");
    for (const [, , path] of plugins) assert.match(path, /^\/usr\/lib\/loupe\/plugins\/\w+\.so$/);
    // An admin command run the documented way: as the image's user, the packaged configuration
    // found without --config, on the server's own database.
    const link = podman("exec", name, "loupe", "admin", "user", "login-link", "--user", "admin");
    assert.match(link, new RegExp(`http://127\\.0\\.0\\.1:${port}/_loupe/login#link=[0-9a-f]{64}`));
  });

  test("the Argos CLI uploads a reference build, then a branch build concludes changes-detected", async () => {
    const main = await upload(reference, "main");
    assert.equal(main.status, "changes-detected", `reference build: ${JSON.stringify(main)}`);
    assert.equal(main.stats.added, 2);
    branchBuild = await upload(branch, repo.branch);
    assert.equal(branchBuild.conclusion, "changes-detected", JSON.stringify(branchBuild));
    assert.equal(branchBuild.stats.changed, 1, JSON.stringify(branchBuild.stats));
    assert.equal(branchBuild.stats.unchanged, 1, JSON.stringify(branchBuild.stats));
    assert.equal(branchBuild.baselineBuild?.number, main.number);
    const log = server.logLines().join("\n");
    assert.match(log, /level=debug .*event=job\.done kind=diff\.compute/, "LOUPE_LOG_LEVEL=debug was read");
  });

  test("SIGTERM drains and exits 0; a new container on the same volume keeps everything", async () => {
    assert.ok(branchBuild, "the builds were uploaded");
    const state = await stop();
    assert.equal(state.ExitCode, 0, `loupe serve exited ${state.ExitCode} at SIGTERM`);
    await start();
    assert.deepEqual(bootstrapOf(name), {
      ...bootstrapOf(name),
      projectToken: server.projectToken,
      personalAccessToken: server.personalAccessToken,
    }, "no second bootstrap: the same tokens");
    const kept = await getBuild(server, branchBuild.number);
    assert.equal(kept.id, branchBuild.id);
    assert.equal(kept.conclusion, "changes-detected", "the database is in the volume");

    const { owner, name: project } = await tokenProject(server);
    const diffs = await server.api("GET", `projects/${owner}/${project}/builds/${branchBuild.number}/diffs`,
      { token: server.personalAccessToken });
    assert.equal(diffs.status, 200, diffs.text);
    const changed = diffs.body.results.find((diff) => diff.name === "changed.png");
    assert.equal(changed?.status, "changed", JSON.stringify(diffs.body));
    // The mask and both screenshots: blobs in the volume, served after the restart.
    const urls = [changed.url, changed.base?.url, changed.head?.url];
    assert.ok(urls.every(Boolean), `a mask and two screenshot URLs: ${JSON.stringify(changed)}`);
    for (const url of urls) {
      const image = await fetch(url);
      assert.equal(image.status, 200, `${url} after the restart`);
      assert.equal(image.headers.get("content-type"), "image/png");
    }

    const again = await upload(branch, repo.branch);
    assert.equal(again.number, branchBuild.number + 1, "build numbers continue");
    assert.equal(again.conclusion, "changes-detected");
  });
});
