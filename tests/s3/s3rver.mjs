// Starts s3rver (a real S3-protocol server that verifies AWS Signature V4) on 127.0.0.1 with
// the buckets named on the command line, and prints one JSON line {"endpoint", "accessKeyId",
// "secretAccessKey"} once it listens. Stops when its standard input closes or on SIGTERM.
// usage: node s3rver.mjs DIRECTORY BUCKET... [--port N]
import { createRequire } from "node:module";
import fs from "node:fs";

const require = createRequire(import.meta.url);
const S3rver = require("@20minutes/s3rver");

export async function startS3rver({ directory, buckets, port = 0 }) {
  fs.mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: "127.0.0.1",
    port,
    directory,
    silent: true,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const address = await server.run();
  return {
    server,
    endpoint: `http://127.0.0.1:${address.port}`,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    close: () => server.close(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  let port = 0;
  const portAt = args.indexOf("--port");
  if (portAt >= 0) {
    port = Number(args[portAt + 1]);
    args.splice(portAt, 2);
  }
  const [directory, ...buckets] = args;
  const started = await startS3rver({ directory, buckets, port });
  process.stdout.write(
    JSON.stringify({
      endpoint: started.endpoint,
      accessKeyId: started.accessKeyId,
      secretAccessKey: started.secretAccessKey,
    }) + "\n",
  );
  const stop = async () => {
    await started.close();
    process.exit(0);
  };
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  process.stdin.resume();
  process.on("SIGTERM", stop);
}
