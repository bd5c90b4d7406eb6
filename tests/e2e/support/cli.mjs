// The two official CLIs under test, a throw-away git repository for them, and a runner.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { patternPng } from "./png.mjs";

const e2eDir = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const modules = join(e2eDir, "node_modules");

/** 4.x runs on the system node (Debian's 20); the latest major needs node >= 22. */
export const clis = [
  { name: "4.x", node: process.execPath, script: join(modules, "argos-cli-4/bin/argos-cli.js") },
  { name: "latest", node: join(modules, "node22/bin/node"), script: join(modules, "argos-cli-latest/bin/argos-cli.js") },
];

export const node22 = clis[1].node;

export function missingNodeModules() {
  const missing = [...clis.flatMap((cli) => [cli.node, cli.script])].filter((path) => !existsSync(path));
  return missing.length ? `node_modules incomplete (run npm ci in ${e2eDir}): missing ${missing.join(", ")}` : null;
}

const checkouts = [];
process.on("exit", () => {
  if (process.env.LOUPE_E2E_KEEP) return;
  for (const dir of checkouts) rmSync(dir, { recursive: true, force: true });
});

/**
 * A CI-like checkout: a bare `origin` and a clone on `branch`, both pushed. With `withMain`,
 * `main` (the project's default base branch) holds the first commit and the branch one more, so
 * the CLI finds a merge base (the 4.x CLI needs both branches on origin; the latest CLI then asks
 * POST /baseline). Without it there is no `main` anywhere and no baseline look-up.
 */
export class GitRepo {
  constructor({ branch = "e2e-feature", withMain = true } = {}) {
    const top = mkdtempSync(join(tmpdir(), "loupe-e2e-repo-"));
    checkouts.push(top);
    this.home = join(top, "home");
    this.origin = join(top, "origin.git");
    this.root = join(top, "work");
    // The CLI's own temporary files (the optimised copy of every screenshot it uploads, which
    // it never deletes) stay in this checkout's folder, removed with it.
    this.tmp = join(top, "tmp");
    mkdirSync(this.home);
    mkdirSync(this.root);
    mkdirSync(this.tmp);
    this.branch = branch;
    execFileSync("git", ["init", "-q", "--bare", this.origin], { env: this.env() });
    this.git("init", "-q", "-b", withMain ? "main" : branch);
    this.git("remote", "add", "origin", this.origin);
    this.#commit("base");
    if (withMain) {
      this.baseCommit = this.git("rev-parse", "HEAD").trim();
      this.git("push", "-q", "origin", "main");
      this.git("checkout", "-q", "-b", branch);
    }
    this.#commit("change");
    this.git("push", "-q", "origin", branch);
    this.commit = this.git("rev-parse", "HEAD").trim();
  }

  #commit(text) {
    writeFileSync(join(this.root, "README"), `${text}\n`);
    this.git("add", "README");
    this.git("commit", "-q", "-m", text);
  }

  git(...args) {
    return execFileSync("git", args, { cwd: this.root, env: this.env() }).toString();
  }

  /** A clean environment: no CI variables leak in (the CLI would read commit/branch from them). */
  env(extra = {}) {
    return {
      PATH: process.env.PATH,
      HOME: this.home,
      LANG: "C.UTF-8",
      TMPDIR: this.tmp,
      NO_COLOR: "1",
      FORCE_COLOR: "0",
      GIT_AUTHOR_NAME: "Loupe E2E",
      GIT_AUTHOR_EMAIL: "e2e@loupe.invalid",
      GIT_COMMITTER_NAME: "Loupe E2E",
      GIT_COMMITTER_EMAIL: "e2e@loupe.invalid",
      GIT_CONFIG_NOSYSTEM: "1",
      ...extra,
    };
  }

  /** Writes `count` distinct PNGs under <repo>/<folder> named <prefix>-<i>.png; returns the names. */
  screenshots(folder, prefix, count, { seed = prefix, nested = 0 } = {}) {
    const names = [];
    for (let i = 0; i < count; i++) {
      const name = i < nested ? `nested/${prefix}-${i}.png` : `${prefix}-${i}.png`;
      const path = join(this.root, folder, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, patternPng(`${seed}/${i}`));
      names.push(name);
    }
    return { dir: join(this.root, folder), names };
  }
}

/** Runs the CLI in the repository; resolves with { code, stdout, stderr, output }. */
export function runCli(cli, repo, args, env = {}, timeoutMs = 120_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(cli.node, [cli.script, ...args], { cwd: repo.root, env: repo.env(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data) => (stdout += data));
    child.stderr.on("data", (data) => (stderr += data));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, output: `${stdout}\n${stderr}`, args });
    });
  });
}

/** A readable summary of a CLI run for assertion messages. */
export function describeRun(cli, run) {
  return `argos ${run.args.join(" ")} (CLI ${cli.name}) exited ${run.code ?? run.signal}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}
