// Observations of the server from the outside: its log lines and its blob folder.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Keys of the `blob.uploaded` log lines (one per stored upload), in order. */
export function uploadedKeys(server) {
  return server
    .logLines()
    .filter((line) => /\bblob\.uploaded\b/.test(line))
    .map((line) => /\bkey=([0-9a-f]{64})\b/.exec(line)?.[1])
    .filter(Boolean);
}

/** Access-log lines of requests to the upload routes (PUT /uploads/{key} and POST /uploads). */
export function uploadRequests(server) {
  return server
    .logLines()
    .filter((line) => /\bhttp\.request\b/.test(line) && /\bpath="?\/uploads\b/.test(line));
}

/** Access-log lines of API requests: [{ method, path, status }]. */
export function apiRequests(server) {
  return server
    .logLines()
    .filter((line) => /\bhttp\.request\b/.test(line))
    .map((line) => ({
      method: /\bmethod=(\S+)/.exec(line)?.[1],
      path: /\bpath=("[^"]*"|\S+)/.exec(line)?.[1]?.replace(/^"|"$/g, ""),
      status: Number(/\bstatus=(\d+)/.exec(line)?.[1]),
      line,
    }));
}

export function blobPath(server, key) {
  return join(server.dataDir, "blobs", key.slice(0, 2), key.slice(2, 4), key);
}

export function sha256File(path) {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Every blob file under <data.dir>/blobs/<k0k1>/<k2k3>/<key> (the tmp folder excluded). */
export function storedBlobs(server) {
  const root = join(server.dataDir, "blobs");
  const blobs = [];
  if (!existsSync(root)) return blobs;
  for (const first of readdirSync(root)) {
    if (first === "tmp" || !statSync(join(root, first)).isDirectory()) continue;
    for (const second of readdirSync(join(root, first))) {
      for (const key of readdirSync(join(root, first, second))) {
        blobs.push({ key, prefix: `${first}/${second}`, path: join(root, first, second, key) });
      }
    }
  }
  return blobs;
}

/** Files left in <data.dir>/blobs/tmp (a finished upload must leave none). */
export function temporaryBlobs(server) {
  const tmp = join(server.dataDir, "blobs", "tmp");
  return existsSync(tmp) ? readdirSync(tmp) : [];
}

/** The last log lines, for assertion messages. */
export function logTail(server, count = 40) {
  return `--- server log (last ${count} lines)\n${server.logLines().slice(-count).join("\n")}`;
}
