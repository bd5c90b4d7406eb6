// node normalize-config.mjs DIR: makes an image written by `buildah push IMAGE dir:DIR` the same
// on every build of the same inputs. buildah records the working container's random ID and
// host name in a Docker-format configuration ("container", "Hostname"); they describe the build,
// not the image, and would give every build another image ID. They are removed, the
// configuration blob is written again under its new digest, and the manifest points at it.
import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
const manifestPath = join(dir, "manifest.json");
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
const oldName = manifest.config.digest.replace(/^sha256:/, "");
const config = JSON.parse(readFileSync(join(dir, oldName), "utf8"));

delete config.container;
delete config.container_config;
if (config.config) delete config.config.Hostname;

const bytes = Buffer.from(JSON.stringify(config));
const digest = createHash("sha256").update(bytes).digest("hex");
writeFileSync(join(dir, oldName), bytes);
if (digest !== oldName) renameSync(join(dir, oldName), join(dir, digest));
manifest.config.digest = `sha256:${digest}`;
manifest.config.size = bytes.length;
writeFileSync(manifestPath, JSON.stringify(manifest));
console.log(`sha256:${digest}`);
