// Pieces shared by the S3 test files: s3rver, `loupe serve` processes on the S3 backend (one
// database and one bucket shared by several of them), a PostgreSQL schema, objects in the bucket.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const here = new URL(".", import.meta.url).pathname;
export const loupeBin = process.env.LOUPE_BIN;
export const sourceDir = process.env.LOUPE_SOURCE_DIR ?? resolve(here, "../..");
export const pluginDir = process.env.LOUPE_PLUGIN_DIR ?? "";
export const signingSecret = "5e1f".repeat(16);

/** Why the S3 suite cannot run here, or null. */
export function missingPrerequisite() {
  if (!loupeBin || !existsSync(loupeBin)) return "LOUPE_BIN is not set or missing (run through ctest)";
  if (!existsSync(join(here, "node_modules/@20minutes/s3rver"))) return "run npm ci in tests/s3";
  if (!existsSync(join(here, "../e2e/node_modules/argos-cli-4"))) return "run npm ci in tests/e2e";
  return null;
}

/**
 * s3rver in a process of its own (in this one, every synchronous step of a test would stall
 * it) with one fresh bucket; `objects(prefix)` lists the bucket's object names.
 */
export async function startBucket() {
  const directory = mkdtempSync(join(tmpdir(), "loupe-s3rver-"));
  const bucket = `loupe-${randomBytes(4).toString("hex")}`;
  const child = spawn(process.execPath, [join(here, "s3rver.mjs"), directory, bucket], { stdio: ["pipe", "pipe", "inherit"] });
  const started = await new Promise((done, fail) => {
    let output = "";
    child.stdout.on("data", (data) => {
      output += data.toString();
      if (output.includes("\n")) done(JSON.parse(output.split("\n")[0]));
    });
    child.on("exit", (code) => fail(new Error(`s3rver exited with ${code}: ${output}`)));
  });
  const exited = new Promise((done) => child.on("exit", done));
  return {
    ...started,
    bucket,
    /** Object names under `prefix`, read from s3rver's folder (<dir>/<bucket>/<name>._S3rver_object). */
    objects(prefix = "") {
      const names = [];
      const walk = (folder, relative) => {
        if (!existsSync(folder)) return;
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          const name = relative ? `${relative}/${entry.name}` : entry.name;
          if (entry.isDirectory()) walk(join(folder, entry.name), name);
          else if (entry.name.endsWith("._S3rver_object")) names.push(name.replace(/\._S3rver_object$/, ""));
        }
      };
      walk(join(directory, bucket), "");
      return names.filter((name) => name.startsWith(prefix)).sort();
    },
    object(name) {
      return readFileSync(join(directory, bucket, `${name}._S3rver_object`));
    },
    async stop() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The blobs.* settings of the S3 backend on `bucket`. */
export function s3Settings(bucket, extra = []) {
  return [
    "blobs.backend=s3",
    `blobs.s3.endpoint=${bucket.endpoint}`,
    `blobs.s3.bucket=${bucket.bucket}`,
    `blobs.s3.access_key_id=${bucket.accessKeyId}`,
    `blobs.s3.secret_access_key=${bucket.secretAccessKey}`,
    `blobs.signing_secret=${signingSecret}`,
    ...extra,
  ];
}

/** A fresh schema of the PostgreSQL server in LOUPE_TEST_POSTGRES_URL: { url, query, drop }. */
export function postgresSchema(baseUrl = process.env.LOUPE_TEST_POSTGRES_URL) {
  const schema = `s3_${randomBytes(6).toString("hex")}`;
  execFileSync("psql", [baseUrl, "-v", "ON_ERROR_STOP=1", "-qc", `CREATE SCHEMA ${schema}`]);
  const url = `${baseUrl}${baseUrl.includes("?") ? "&" : "?"}options=-csearch_path%3D${schema}`;
  return {
    url,
    query: (sql) =>
      execFileSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-AtF", "\t", "-c", sql])
        .toString()
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => line.split("\t")),
    drop: () =>
      execFileSync("psql", [baseUrl, "-qc", `SET client_min_messages TO warning; DROP SCHEMA IF EXISTS ${schema} CASCADE`]),
  };
}

/** One `loupe serve` (port 0, its own data folder) with `settings`; resolves once it listens. */
export class Instance {
  static async start({ databaseUrl, settings = [], name = "loupe" }) {
    const instance = new Instance(name);
    await instance.#start(databaseUrl, settings);
    return instance;
  }

  constructor(name) {
    this.name = name;
    this.root = mkdtempSync(join(tmpdir(), `loupe-s3-${name}-`));
    this.dataDir = join(this.root, "data");
    this.output = "";
  }

  async #start(databaseUrl, settings) {
    const args = [
      "--config", join(sourceDir, "etc/loupe.properties"),
      "--set", "http.port=0",
      "--set", "http.listen_address=127.0.0.1",
      "--set", `data.dir=${this.dataDir}`,
      "--set", `db.url=${databaseUrl ?? `sqlite:${join(this.dataDir, "loupe.db")}`}`,
      "--set", "plugins.enabled=auth,builds",
      ...(pluginDir ? ["--set", `plugins.path=${pluginDir}`] : []),
      ...settings.flatMap((setting) => ["--set", setting]),
      "serve",
    ];
    this.process = spawn(loupeBin, args, { stdio: ["ignore", "pipe", "pipe"] });
    this.exited = new Promise((done) => this.process.on("exit", (code, signal) => done({ code, signal })));
    this.watchers = [];
    const collect = (data) => {
      this.output += data.toString();
      this.watchers = this.watchers.filter((watch) => !watch());
    };
    this.process.stdout.on("data", collect);
    this.process.stderr.on("data", collect);
    let exit = null;
    this.exited.then((value) => (exit = value));
    const deadline = Date.now() + 60_000;
    while (!/loupe: listening on (http:\/\/\S+)/.test(this.output)) {
      if (exit) throw new Error(`${this.name} exited (${JSON.stringify(exit)}) before listening:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`${this.name} did not start in 60 s:\n${this.output}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    this.url = /loupe: listening on (http:\/\/\S+)/.exec(this.output)[1].replace(/\/$/, "");
    this.apiBaseUrl = `${this.url}/v2/`;
    this.instanceId = /event=jobs\.started .*instance=(\S+)/.exec(this.output)?.[1] ?? null;
  }

  /** Calls `action` as soon as output printed from now on matches `pattern`. */
  onOutput(pattern, action) {
    const from = this.output.length;
    const watch = () => pattern.test(this.output.slice(from)) && (action(), true);
    if (!watch()) this.watchers.push(watch);
  }

  /** The bootstrap tokens, when this instance is the one that bootstrapped the database. */
  bootstrap() {
    const file = join(this.dataDir, "bootstrap.json");
    return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
  }

  logLines(event) {
    return this.output.split("\n").filter((line) => !event || line.includes(`event=${event} `) || line.endsWith(`event=${event}`));
  }

  async api(method, path, { token, body } = {}) {
    const response = await fetch(new URL(path.replace(/^\//, ""), this.apiBaseUrl), {
      method,
      headers: {
        // A fresh connection per call: a kept-alive one the server closes while the test is
        // busy elsewhere fails the next call with "other side closed".
        Connection: "close",
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

  kill(signal = "SIGKILL") {
    this.process.kill(signal);
    return this.exited;
  }

  async stop() {
    if (this.process && this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill("SIGTERM");
      const timer = setTimeout(() => this.process.kill("SIGKILL"), 15_000);
      await this.exited;
      clearTimeout(timer);
    }
    if (process.env.LOUPE_E2E_KEEP) {
      writeFileSync(join(this.root, "server.log"), this.output);
      console.log(`# kept ${this.root}`);
    } else {
      rmSync(this.root, { recursive: true, force: true });
    }
  }
}

/** Polls the build until it is neither pending nor progress. */
export async function concluded(instance, token, owner, project, number, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await instance.api("GET", `projects/${owner}/${project}/builds/${number}`, { token });
    if (response.status === 200 && !["pending", "progress"].includes(response.body.status)) return response.body;
    if (Date.now() > deadline) throw new Error(`build ${number}: ${response.status} ${response.text}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}
