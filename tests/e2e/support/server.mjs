// Starts a private `loupe serve` for one test file: its own data dir, its own database
// (SQLite file, or a fresh PostgreSQL schema when LOUPE_TEST_POSTGRES_URL is set), port 0.
import { spawn, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const here = new URL(".", import.meta.url).pathname;

export const loupeBin = process.env.LOUPE_BIN;
export const sourceDir = process.env.LOUPE_SOURCE_DIR ?? resolve(here, "../../..");
export const pluginDir = process.env.LOUPE_PLUGIN_DIR ?? "";

/** Why the suite cannot run here, or null. */
export function missingPrerequisite() {
  if (!loupeBin) return "LOUPE_BIN is not set (run through ctest, or set it to the loupe binary)";
  try {
    readFileSync(loupeBin);
  } catch {
    return `LOUPE_BIN ${loupeBin} does not exist`;
  }
  return null;
}

function postgresDatabase(baseUrl) {
  const schema = `e2e_${randomBytes(6).toString("hex")}`;
  execFileSync("psql", [baseUrl, "-v", "ON_ERROR_STOP=1", "-qc", `CREATE SCHEMA ${schema}`]);
  const separator = baseUrl.includes("?") ? "&" : "?";
  const url = `${baseUrl}${separator}options=-csearch_path%3D${schema}`;
  return {
    url,
    query: (sql) => execFileSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-AtF", "\t", "-c", sql]).toString(),
    drop: () =>
      execFileSync("psql", [baseUrl, "-qc", `SET client_min_messages TO warning; DROP SCHEMA IF EXISTS ${schema} CASCADE`]),
  };
}

/** Runs `sql` on the SQLite file with node 22's built-in driver (node 20 has none). */
function sqliteQuery(file, node22) {
  return (sql) =>
    execFileSync(node22, ["--no-warnings", "-e", `
      const { DatabaseSync } = require("node:sqlite");
      const db = new DatabaseSync(process.argv[1], { readOnly: true });
      for (const row of db.prepare(process.argv[2]).all())
        console.log(Object.values(row).join("\\t"));`, file, sql]).toString();
}

export class LoupeServer {
  /**
   * node22: needed for SQL queries on SQLite. postgresUrl: run on a fresh schema of that
   * database instead of SQLite. settings: extra `key=value` overrides.
   */
  static async start({ node22, postgresUrl = process.env.LOUPE_TEST_POSTGRES_URL, settings = [] } = {}) {
    const server = new LoupeServer();
    await server.#start(node22, postgresUrl, settings);
    return server;
  }

  root = mkdtempSync(join(tmpdir(), "loupe-e2e-"));
  dataDir = join(this.root, "data");
  output = "";
  #process = null;
  #db = null;
  #exited = null;
  #commonArgs = [];

  async #start(node22, postgresUrl, settings) {
    if (postgresUrl) {
      this.#db = postgresDatabase(postgresUrl);
    } else {
      const file = join(this.dataDir, "loupe.db");
      this.#db = { url: `sqlite:${file}`, query: node22 ? sqliteQuery(file, node22) : null, drop() {} };
    }
    this.#commonArgs = [
      "--config", join(sourceDir, "etc/loupe.properties"),
      "--set", "http.port=0",
      "--set", "http.listen_address=127.0.0.1",
      "--set", `data.dir=${this.dataDir}`,
      "--set", `db.url=${this.#db.url}`,
      "--set", "plugins.enabled=auth,builds,reviews,deployments",
      ...(pluginDir ? ["--set", `plugins.path=${pluginDir}`] : []),
      ...settings.flatMap((setting) => ["--set", setting]),
    ];
    this.#process = spawn(loupeBin, [...this.#commonArgs, "serve"], { stdio: ["ignore", "pipe", "pipe"] });
    this.#exited = new Promise((done) => this.#process.on("exit", (code, signal) => done({ code, signal })));
    const collect = (data) => {
      this.output += data.toString();
    };
    this.#process.stdout.on("data", collect);
    this.#process.stderr.on("data", collect);

    const deadline = Date.now() + 60_000;
    let exit = null;
    this.#exited.then((value) => (exit = value));
    while (!/loupe: listening on (http:\/\/\S+)/.test(this.output)) {
      if (exit) throw new Error(`loupe serve exited (${JSON.stringify(exit)}) before listening:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`loupe serve did not start in 60 s:\n${this.output}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    this.url = /loupe: listening on (http:\/\/\S+)/.exec(this.output)[1].replace(/\/$/, "");
    this.apiBaseUrl = `${this.url}/v2/`;
    // The deployments plugin serves sites on a listener of its own (unless a domain is set):
    // `loupe: listener sites at <url> (...)`, printed right after the line above.
    const enabled = this.#commonArgs.filter((arg) => arg.startsWith("plugins.enabled=")).at(-1) ?? "";
    const domainMode = this.#commonArgs.some((arg) => arg.startsWith("plugins.deployments.domain="));
    if (enabled.includes("deployments") && !domainMode) {
      const sites = /loupe: listener sites at (\S+) /;
      const sitesDeadline = Date.now() + 10_000;
      while (!sites.test(this.output) && Date.now() < sitesDeadline) await new Promise((done) => setTimeout(done, 20));
      this.sitesUrl = sites.exec(this.output)?.[1];
      if (!this.sitesUrl) throw new Error(`loupe serve printed no sites listener:\n${this.output}`);
    }
    const bootstrap = JSON.parse(readFileSync(join(this.dataDir, "bootstrap.json"), "utf8"));
    this.projectToken = bootstrap.projectToken;
    this.personalAccessToken = bootstrap.personalAccessToken;
    if (!this.projectToken || !this.personalAccessToken) {
      throw new Error(`bootstrap.json lacks projectToken/personalAccessToken: ${JSON.stringify(Object.keys(bootstrap))}`);
    }
  }

  /** Runs `loupe <args>` on the server's configuration and database; returns its stdout. */
  cli(args) {
    return execFileSync(loupeBin, [...this.#commonArgs, ...args], { stdio: ["ignore", "pipe", "pipe"] }).toString();
  }

  /** Server log lines (stdout and stderr) seen so far. */
  logLines() {
    return this.output.split("\n");
  }

  /** Rows (arrays of strings) of a read-only SQL query on the server's database. */
  query(sql) {
    if (!this.#db.query) throw new Error("no SQL client for this database");
    return this.#db.query(sql).split("\n").filter((line) => line !== "").map((line) => line.split("\t"));
  }

  get database() {
    return this.#db.url.startsWith("sqlite:") ? "SQLite" : "PostgreSQL";
  }

  get canQuery() {
    return Boolean(this.#db.query);
  }

  /** Runs `loupe admin ARGS... --json` on this server's configuration; returns the JSON. */
  admin(...args) {
    const out = execFileSync(loupeBin, [...this.#commonArgs, "admin", ...args, "--json"], {
      stdio: ["ignore", "pipe", "pipe"],
    }).toString();
    return JSON.parse(out.slice(out.indexOf("{"), out.lastIndexOf("}") + 1));
  }

  /** fetch() against the API with a bearer token; returns { status, body, text }. */
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

  async stop() {
    if (this.#process && this.#process.exitCode === null && this.#process.signalCode === null) {
      this.#process.kill("SIGTERM");
      const timer = setTimeout(() => this.#process.kill("SIGKILL"), 15_000);
      await this.#exited;
      clearTimeout(timer);
    }
    if (process.env.LOUPE_E2E_KEEP) {
      writeFileSync(join(this.root, "server.log"), this.output);
      console.log(`# kept ${this.root}`);
    } else {
      rmSync(this.root, { recursive: true, force: true });
    }
    this.#db?.drop();
  }
}
