// The GitHub/GitLab stand-in as a process (tests/standin, LOUPE_STANDIN_BIN) for the end-to-end
// tests: it checks the GitHub App's JWTs against the public key made here, answers the provider
// calls from the data a test sets, and records what Loupe posted (comments, checks, statuses).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const standinBin = process.env.LOUPE_STANDIN_BIN;

/** Why a test needing the stand-in cannot run (a string), or false. */
export function standinMissing() {
  if (!standinBin || !existsSync(standinBin)) {
    console.log("# skipped: LOUPE_STANDIN_BIN is not set");
    return "LOUPE_STANDIN_BIN is not set";
  }
  return false;
}

export class Standin {
  /** Starts the stand-in with a new GitHub App key pair (`appId` 4242). */
  static async start() {
    const standin = new Standin();
    standin.keyDir = mkdtempSync(join(tmpdir(), "loupe-e2e-app-"));
    const keys = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
    });
    standin.privateKeyFile = join(standin.keyDir, "app.pem");
    writeFileSync(standin.privateKeyFile, keys.privateKey, { mode: 0o600 });
    writeFileSync(join(standin.keyDir, "app.pub"), keys.publicKey);
    standin.process = spawn(standinBin, ["--app-id", "4242", "--public-key", join(standin.keyDir, "app.pub")], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    standin.process.stdout.on("data", (data) => (output += data));
    const deadline = Date.now() + 10_000;
    while (!/listening on (\S+)/.test(output)) {
      if (Date.now() > deadline) throw new Error(`stand-in did not start: ${output}`);
      await new Promise((done) => setTimeout(done, 20));
    }
    standin.url = /listening on (\S+)/.exec(output)[1];
    return standin;
  }

  /** The Loupe settings that point the GitHub App at this stand-in. */
  githubSettings() {
    return [`github.api_url=${this.url}/github`, "github.app_id=4242", `github.app_private_key_file=${this.privateKeyFile}`];
  }

  async setData(data) {
    const response = await fetch(`${this.url}/_standin/data`, { method: "PUT", body: JSON.stringify(data) });
    assert.equal(response.status, 200);
  }

  async counts() {
    return (await fetch(`${this.url}/_standin/counts`)).json();
  }

  /** Every comment, note and check run call received: {provider, repository, call, number, id, body}. */
  async posts() {
    return (await fetch(`${this.url}/_standin/posts`)).json();
  }

  stop() {
    this.process?.kill("SIGTERM");
    if (this.keyDir) rmSync(this.keyDir, { recursive: true, force: true });
  }
}
