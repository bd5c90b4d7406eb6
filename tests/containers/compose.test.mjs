// The scale-out shape of packaging/compose/compose.yaml, started by docker-compose (Debian's)
// through podman's Docker-compatible API: PostgreSQL, s3rver, two Loupe instances and HAProxy,
// all from the locally built images. The official Argos CLI (4.x) uploads a reference build
// through the proxy (its requests reach both instances), then the screenshots of a branch
// build through instance 1 alone; instance 1 is stopped, `argos finalize` through instance 2
// completes the build, and instance 2 diffs it: changes-detected, every diff job run by
// instance 2, the result the same through instance 1 once it is back.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { clis, describeRun, GitRepo, runCli } from "../e2e/support/cli.mjs";
import { patternPng } from "../e2e/support/png.mjs";
import { createdBuildNumber, getBuild, tokenProject, waitForConclusion, writeScreens } from "../e2e/support/suite.mjs";
import {
  bootstrapOf, containersConf, ContainerServer, freePort, loupeImage, missingPrerequisite, podman, podmanRun, sleep,
  sourceDir, waitForStatus,
} from "./support.mjs";

const composeFile = join(sourceDir, "packaging/compose/compose.yaml");
const serviceImages = ["localhost/loupe-postgres:15", "localhost/loupe-s3rver:4.0.4", "localhost/loupe-haproxy:2.6"];
const skip = missingPrerequisite() ??
  (spawnSync("docker-compose", ["version"]).status === 0 ? null : "docker-compose is not installed") ??
  (serviceImages.map((image) => (podmanRun("image", "exists", image).code === 0 ? null : `image ${image} not built`))
    .find(Boolean) ?? null);
if (skip) console.log(`# compose tests skipped: ${skip}`);
const cli = clis.find((candidate) => candidate.name === "4.x");

/**
 * Every key of etc/loupe.properties as the LOUPE_* variable Loupe reads for it: keys set in the
 * file, and keys shown commented out because their default is computed
 * (`# plugins.deployments.port = 8081`: http.port + 1).
 */
function knownVariables() {
  return new Set(readFileSync(join(sourceDir, "etc/loupe.properties"), "utf8").split("\n")
    .map((line) => /^(?:#\s*)?([a-z0-9_.-]+)\s*=/.exec(line)?.[1]).filter(Boolean)
    .map((key) => `LOUPE_${key.toUpperCase().replace(/[.-]/g, "_")}`));
}

describe("compose: PostgreSQL, S3, two instances behind a proxy", { skip: skip ?? false }, () => {
  const project = `loupe-compose-${randomBytes(4).toString("hex")}`;
  const work = mkdtempSync(join(tmpdir(), "loupe-compose-"));
  const socket = join(work, "podman.sock");
  const container = (service) => `${project}_${service}_1`;
  let service; // podman system service: the Docker API docker-compose talks to
  let ports;
  let composeEnv;
  let viaProxy;
  let instance1;
  let instance2;
  let repo;

  function compose(...args) {
    const run = spawnSync("docker-compose", ["--no-ansi", "-f", composeFile, "-p", project, ...args], {
      encoding: "utf8", env: composeEnv, timeout: 600_000,
    });
    assert.equal(run.status, 0, `docker-compose ${args.join(" ")} exited ${run.status}:\n${run.stderr}${run.stdout}`);
    return run.stdout;
  }
  const logsOf = (name) => {
    const run = podmanRun("logs", container(name));
    return `${run.stdout}${run.stderr}`;
  };
  const describeAll = () =>
    ["postgres", "s3", "loupe-1", "loupe-2", "proxy"].map((name) => `--- ${name}\n${logsOf(name).split("\n").slice(-30).join("\n")}`).join("\n");
  const instanceId = (name) => /event=jobs\.started .*\binstance="?([^"\s]+)/.exec(logsOf(name))?.[1];
  const sql = (query) =>
    podman("exec", container("postgres"), "psql", "-h", "/tmp", "-U", "loupe", "-d", "loupe", "-At", "-F", "\t", "-c", query).trim();
  const upload = async (server, files, branch, extraArgs = []) => {
    repo.git("checkout", "-q", branch);
    const dir = writeScreens(repo, `screens-${branch}`, files);
    const run = await runCli(cli, repo, ["upload", dir, "--build-name", "compose", ...extraArgs], {
      ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken,
    });
    assert.equal(run.code, 0, `${describeRun(cli, run)}\n${describeAll()}`);
    const created = createdBuildNumber(run);
    assert.ok(created, describeRun(cli, run));
    return created;
  };

  const reference = Object.fromEntries(["a", "b", "c"].map((id) => [`${id}.png`, patternPng(`compose/${id}`)]));
  const branchFiles = { ...reference, "b.png": patternPng("compose/b", { paint: { x: 4, y: 4, width: 14, height: 12 } }) };

  before(async () => {
    ports = {};
    for (const name of ["proxy", "loupe1", "loupe2", "sites1", "sites2", "postgres", "s3"]) ports[name] = await freePort();
    composeEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? "/root",
      DOCKER_HOST: `unix://${socket}`,
      CONTAINERS_CONF: containersConf,
      LOUPE_SIGNING_SECRET: randomBytes(32).toString("hex"),
      POSTGRES_PASSWORD: randomBytes(12).toString("hex"),
      LOUPE_IMAGE: loupeImage,
      LOUPE_PUBLIC_URL: `http://127.0.0.1:${ports.proxy}`,
      LOUPE_PROXY_LISTEN: `127.0.0.1:${ports.proxy}`,
      LOUPE_S3_ENDPOINT: `http://127.0.0.1:${ports.s3}`,
      S3_PORT: String(ports.s3),
      POSTGRES_PORT: String(ports.postgres),
      LOUPE_1_PORT: String(ports.loupe1),
      LOUPE_2_PORT: String(ports.loupe2),
      LOUPE_1_SITES_PORT: String(ports.sites1),
      LOUPE_2_SITES_PORT: String(ports.sites2),
    };
    service = spawn("podman", ["system", "service", "--time=0", `unix://${socket}`], {
      env: { ...process.env, CONTAINERS_CONF: containersConf }, stdio: ["ignore", "ignore", "pipe"],
    });
    let serviceErrors = "";
    service.stderr.on("data", (data) => (serviceErrors += data));
    for (let i = 0; !existsSync(socket); i++) {
      if (service.exitCode !== null || i > 200) throw new Error(`podman system service did not start:\n${serviceErrors}`);
      await sleep(100);
    }
    compose("up", "--detach", "--no-build");
    const describe = describeAll;
    await Promise.all([
      waitForStatus(`http://127.0.0.1:${ports.loupe1}/readyz`, 200, { timeoutMs: 240_000, describe }),
      waitForStatus(`http://127.0.0.1:${ports.loupe2}/readyz`, 200, { timeoutMs: 240_000, describe }),
      waitForStatus(`http://127.0.0.1:${ports.proxy}/readyz`, 200, { timeoutMs: 240_000, describe }),
    ]);
    const credentials = [bootstrapOf(container("loupe-1")), bootstrapOf(container("loupe-2"))];
    assert.equal(credentials.filter(Boolean).length, 1, "exactly one instance bootstrapped the shared database");
    const [first] = credentials.filter(Boolean);
    const allContainers = [container("loupe-1"), container("loupe-2"), container("proxy")];
    viaProxy = new ContainerServer({ url: `http://127.0.0.1:${ports.proxy}`, containers: allContainers, credentials: first });
    instance1 = new ContainerServer({ url: `http://127.0.0.1:${ports.loupe1}`, containers: allContainers, credentials: first });
    instance2 = new ContainerServer({ url: `http://127.0.0.1:${ports.loupe2}`, containers: allContainers, credentials: first });
    repo = new GitRepo({ branch: "compose-feature" });
  });

  after(async () => {
    if (composeEnv && service && service.exitCode === null) {
      spawnSync("docker-compose", ["--no-ansi", "-f", composeFile, "-p", project, "down", "--volumes", "--timeout", "5"], {
        env: composeEnv, timeout: 300_000,
      });
    }
    service?.kill("SIGTERM");
    rmSync(work, { recursive: true, force: true });
  });

  test("the compose file sets only configuration keys Loupe reads", () => {
    const known = knownVariables();
    // PyYAML (docker-compose's own parser) resolves the anchors and merge keys.
    const file = JSON.parse(spawnSync("python3", ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))"],
      { input: readFileSync(composeFile), encoding: "utf8" }).stdout);
    for (const name of ["loupe-1", "loupe-2"]) {
      const names = Object.keys(file.services[name].environment);
      assert.ok(names.includes("LOUPE_DB_URL") && names.includes("LOUPE_BLOBS_S3_ENDPOINT"), names.join(" "));
      for (const variable of names) assert.ok(known.has(variable), `${name}: ${variable} names no key of etc/loupe.properties`);
    }
  });

  test("every service is healthy by its image's own health check", () => {
    for (const name of ["postgres", "s3", "loupe-1", "loupe-2"]) {
      const check = podmanRun("healthcheck", "run", container(name));
      assert.equal(check.code, 0, `${name}: ${check.stdout}${check.stderr}\n${logsOf(name)}`);
    }
    const users = ["postgres", "s3", "loupe-1", "loupe-2", "proxy"].map((name) =>
      podman("exec", container(name), "id", "-u").trim());
    assert.deepEqual(users, ["999", "999", "999", "999", "999"], "no service runs as root");
  });

  let referenceBuild;
  test("a reference build uploaded through the proxy reaches both instances", async () => {
    const created = await upload(viaProxy, reference, "main");
    referenceBuild = await waitForConclusion(viaProxy, created.number, 120_000);
    assert.equal(referenceBuild.status, "changes-detected", JSON.stringify(referenceBuild));
    assert.equal(referenceBuild.stats.added, 3);
    const log = logsOf("proxy");
    for (const server of ["loupe-1", "loupe-2"]) {
      assert.match(log, new RegExp(`loupe/${server} \\d+/\\d+/\\d+/\\d+/\\d+ 2\\d\\d `), `the proxy sent requests to ${server}:\n${log}`);
    }
    const stored = sql("SELECT count(*) FROM screenshots s JOIN builds b ON b.id = s.build_id WHERE b.number = " +
      Number(created.number));
    assert.equal(stored, "3", "the screenshots are rows of the shared PostgreSQL database");
  });

  test("a build uploaded through instance 1 is diffed by instance 2", async () => {
    assert.ok(referenceBuild, "the reference build concluded");
    const nonce = `compose-${randomBytes(4).toString("hex")}`;
    const created = await upload(instance1, branchFiles, repo.branch,
      ["--parallel", "--parallel-total=-1", "--parallel-nonce", nonce]);
    const open = await getBuild(instance1, created.number);
    assert.ok(["pending", "progress"].includes(open.status), `not concluded before finalize: ${JSON.stringify(open)}`);
    assert.equal(sql(`SELECT complete FROM builds WHERE id = ${Number(open.id)}`), "0", "not complete before finalize");

    compose("stop", "--timeout", "45", "loupe-1");
    const stopped = JSON.parse(podman("inspect", container("loupe-1")))[0].State;
    assert.equal(stopped.ExitCode, 0, "instance 1 drained and exited 0 at SIGTERM");
    const instance2Id = instanceId("loupe-2");
    assert.ok(instance2Id, `instance 2 logged its id:\n${logsOf("loupe-2")}`);

    const finalize = await runCli(cli, repo, ["finalize", "--parallel-nonce", nonce], {
      ARGOS_API_BASE_URL: instance2.apiBaseUrl, ARGOS_TOKEN: instance2.projectToken,
    });
    assert.equal(finalize.code, 0, `${describeRun(cli, finalize)}\n${describeAll()}`);
    const build = await waitForConclusion(instance2, created.number, 120_000);
    assert.equal(build.conclusion, "changes-detected", JSON.stringify(build));
    assert.equal(build.stats.changed, 1, JSON.stringify(build.stats));
    assert.equal(build.stats.unchanged, 2, JSON.stringify(build.stats));
    assert.equal(build.baselineBuild?.number, referenceBuild.number);

    const runners = sql(`SELECT kind, locked_by FROM jobs WHERE status = 'done' AND kind IN ('build.process', 'diff.compute') ` +
      `AND payload ~ '"buildId":${Number(build.id)}[,}]' ORDER BY kind`).split("\n").map((line) => line.split("\t"));
    assert.ok(runners.some(([kind]) => kind === "diff.compute"), `the build's diff jobs: ${JSON.stringify(runners)}`);
    for (const [kind, lockedBy] of runners) assert.equal(lockedBy, instance2Id, `${kind} ran on instance 2`);

    compose("start", "loupe-1");
    await waitForStatus(`${instance1.url}/readyz`, 200, { describe: describeAll });
    const again = await getBuild(instance1, created.number);
    assert.equal(again.conclusion, "changes-detected", "instance 1 reads the same build");
    const { owner, name } = await tokenProject(instance1);
    const diffs = await instance1.api("GET", `projects/${owner}/${name}/builds/${created.number}/diffs`,
      { token: instance1.personalAccessToken });
    assert.equal(diffs.status, 200, diffs.text);
    const changed = diffs.body.results.find((diff) => diff.name === "b.png");
    assert.equal(changed?.status, "changed", JSON.stringify(diffs.body));
    assert.ok(changed.url.startsWith(`http://127.0.0.1:${ports.s3}/loupe/blobs/`), `a presigned URL on the bucket: ${changed.url}`);
    const mask = await fetch(changed.url);
    assert.equal(mask.status, 200, `the mask instance 2 stored is in the bucket: ${changed.url}`);
  });
});
