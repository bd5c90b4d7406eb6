// Entry point of the S3 image: s3rver (an S3-protocol server that verifies AWS Signature V4 on
// header and presigned requests) on S3RVER_ADDRESS:S3RVER_PORT (default 0.0.0.0:9000), objects
// under S3RVER_DIRECTORY (default /var/lib/s3rver, the image's volume), with the buckets named
// in S3RVER_BUCKETS (comma-separated, default "loupe") created when missing. s3rver accepts one
// key pair: access key id S3RVER, secret S3RVER. Stops on SIGTERM and SIGINT.
import { createRequire } from "node:module";
import fs from "node:fs";

const require = createRequire(import.meta.url);
const S3rver = require("@20minutes/s3rver");

const address = process.env.S3RVER_ADDRESS || "0.0.0.0";
const port = Number(process.env.S3RVER_PORT || 9000);
const directory = process.env.S3RVER_DIRECTORY || "/var/lib/s3rver";
const buckets = (process.env.S3RVER_BUCKETS ?? "loupe")
  .split(",")
  .map((name) => name.trim())
  .filter(Boolean);

if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`s3rver: S3RVER_PORT must be a port number, got "${process.env.S3RVER_PORT}"`);
  process.exit(2);
}
fs.mkdirSync(directory, { recursive: true });
const server = new S3rver({
  address,
  port,
  directory,
  silent: process.env.S3RVER_SILENT === "1",
  configureBuckets: buckets.map((name) => ({ name })),
});
const listening = await server.run();
console.log(`s3rver: listening on ${listening.address}:${listening.port}, buckets ${buckets.join(", ") || "(none)"}, objects in ${directory}`);

const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
