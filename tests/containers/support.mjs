// podman from the tests: commands, free ports, waiting for an HTTP answer, and a server object
// with the same surface as tests/e2e's LoupeServer (api, tokens, log) for a Loupe in a container,
// so the e2e helpers (getBuild, waitForConclusion, ...) work on it unchanged.
import { execFileSync, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

export const here = fileURLToPath(new URL(".", import.meta.url)).replace(/\/$/, "");
export const sourceDir = join(here, "../..");
/** Test runs use this file: runc, and no default ulimits (this machine cannot raise them). */
export const containersConf = join(here, "containers.conf");
export const loupeImage = process.env.LOUPE_IMAGE ?? "localhost/loupe:0.1.0";
const env = { ...process.env, CONTAINERS_CONF: containersConf };

/** Runs podman; returns stdout, throws with stderr on a non-zero exit. */
export function podman(...args) {
  const run = spawnSync("podman", args, { encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    throw new Error(`podman ${args.join(" ")} exited ${run.status}:\n${run.stderr}${run.stdout}`);
  }
  return run.stdout;
}

/** podman, never throwing: { code, stdout, stderr }. */
export function podmanRun(...args) {
  const run = spawnSync("podman", args, { encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Why the container tests cannot run here, or null. */
export function missingPrerequisite() {
  if (process.getuid?.() !== 0) return "needs root (podman runs the containers as root here)";
  try {
    execFileSync("podman", ["image", "exists", loupeImage], { env });
  } catch {
    return `image ${loupeImage} not built (packaging/container/build-images.sh; tests/containers/run.sh builds it)`;
  }
  return null;
}

/** A port free on 127.0.0.1 now (the kernel picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `url` until it answers `status`; throws after `timeoutMs` with `describe()`. */
export async function waitForStatus(url, status, { timeoutMs = 120_000, describe = () => "" } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      last = `${response.status} ${await response.text()}`;
      if (response.status === status) return;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer ${status} in ${timeoutMs} ms (last: ${last})\n${describe()}`);
    await sleep(250);
  }
}

/** The bootstrap credentials a Loupe container wrote into its volume, or null. */
export function bootstrapOf(container) {
  const run = podmanRun("exec", container, "cat", "/var/lib/loupe/bootstrap.json");
  return run.code === 0 ? JSON.parse(run.stdout) : null;
}

/** A Loupe reached over HTTP, whose log is a container's: what tests/e2e's helpers need. */
export class ContainerServer {
  constructor({ url, containers, credentials }) {
    this.url = url;
    this.apiBaseUrl = `${url}/v2/`;
    this.containers = containers;
    this.projectToken = credentials.projectToken;
    this.personalAccessToken = credentials.personalAccessToken;
  }

  /** The containers' logs, one line an entry. */
  logLines() {
    return this.containers.flatMap((name) => {
      const run = podmanRun("logs", name);
      return [`--- ${name}`, ...`${run.stdout}${run.stderr}`.split("\n")];
    });
  }

  async api(method, path, { token = this.projectToken, body } = {}) {
    const response = await fetch(new URL(path.replace(/^\//, ""), this.apiBaseUrl), {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: response.status, body: json, text };
  }
}
