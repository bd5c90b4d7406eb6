// Deployment benchmark: `argos deploy` of a 5,000-file Storybook-like site with the
// real CLI against a `loupe serve` started here (timed), then the site served to 16 concurrent
// clients (wrk) by Loupe and by Debian's nginx from the same files on disk, in the same run.
// Prints requests/s and p99 latency of both and Loupe's share of nginx's requests/s.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { clis, GitRepo, node22 } from "../../tests/e2e/support/cli.mjs";
import { LoupeServer } from "../../tests/e2e/support/server.mjs";

const { values: options } = parseArgs({
  options: {
    site: { type: "string" },
    clients: { type: "string", default: "16" },
    threads: { type: "string", default: "2" },
    seconds: { type: "string", default: "15" },
    runs: { type: "string", default: "2" },
    cli: { type: "string", default: "latest" },
  },
});
const cli = clis.find((c) => c.name === options.cli);
if (!cli) throw new Error(`--cli: one of ${clis.map((c) => c.name).join(", ")}`);

function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}
const files = listFiles(options.site).map((path) => relative(options.site, path)).sort();
const bytes = files.reduce((sum, path) => sum + statSync(join(options.site, path)).size, 0);
console.log(`site: ${files.length} files, ${(bytes / 1048576).toFixed(1)} MiB`);

const work = mkdtempSync(join(tmpdir(), "loupe-bench-deploy-"));
const server = await LoupeServer.start({
  node22,
  postgresUrl: process.env.LOUPE_BENCH_POSTGRES_URL || undefined,
  settings: ["plugins.enabled=auth,builds,deployments", "log.level=warn"],
});
let nginx = null;
try {
  server.cli(["admin", "deployments", "settings", "--project", "default/default", "--auth", "public"]);
  const repo = new GitRepo({ branch: "bench-deploy" });
  const env = { ...repo.env(), ARGOS_API_BASE_URL: server.apiBaseUrl, ARGOS_TOKEN: server.projectToken };

  const deployOnce = () => {
    const started = performance.now();
    const run = spawnSync(cli.node, [cli.script, "deploy", options.site], { cwd: repo.root, env, encoding: "utf8" });
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0) throw new Error(`argos deploy failed:\n${run.stdout}\n${run.stderr}`);
    const url = /Deployed: (\S+)/.exec(run.stdout + run.stderr)?.[1];
    return { seconds, url };
  };
  const first = deployOnce();
  const again = deployOnce();
  console.log(`argos deploy (CLI ${cli.name}), ${files.length} files: ${first.seconds.toFixed(2)} s; ` +
    `the same files again (nothing to upload): ${again.seconds.toFixed(2)} s`);
  const sitePath = new URL(first.url).pathname;  // /d/<slug>/
  const sitesOrigin = new URL(first.url).origin;  // the sites listener
  // Serving is measured in its steady state: once the gzip variants are made.
  const compressStarted = performance.now();
  while (Number(server.query("SELECT COUNT(*) FROM deployments WHERE compressed = 0")[0][0]) > 0) {
    await new Promise((done) => setTimeout(done, 200));
  }
  console.log(`gzip variants of the first deployment ready ${((performance.now() - compressStarted) / 1000).toFixed(1)} s after the second deploy`);

  // nginx serving the same folder, as Debian ships it but for the port, the root and no log.
  const nginxPort = 20000 + Math.floor(Math.random() * 20000);
  const conf = join(work, "nginx.conf");
  writeFileSync(conf, `
worker_processes auto;
pid ${work}/nginx.pid;
error_log ${work}/nginx-error.log;
daemon off;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  access_log off;
  client_body_temp_path ${work}/body; proxy_temp_path ${work}/proxy; fastcgi_temp_path ${work}/fastcgi;
  uwsgi_temp_path ${work}/uwsgi; scgi_temp_path ${work}/scgi;
  server { listen 127.0.0.1:${nginxPort}; root ${options.site}; }
}
`);
  nginx = spawn("nginx", ["-c", conf, "-p", work], { stdio: "ignore" });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${nginxPort}/index.html`)).ok) break;
    } catch {}
    await new Promise((done) => setTimeout(done, 50));
  }

  // Every file once per round, in a shuffled order both servers get.
  const pathsFile = join(work, "paths.txt");
  const shuffled = [...files];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = (i * 7919 + 13) % (i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  writeFileSync(pathsFile, shuffled.map((p) => p.split("/").map(encodeURIComponent).join("/")).join("\n") + "\n");
  const script = join(work, "paths.lua");
  writeFileSync(script, `
local paths = {}
for line in io.lines("${pathsFile}") do paths[#paths + 1] = line end
local prefix = os.getenv("BENCH_PREFIX")
local counter = 0
function setup(thread) thread:set("offset", counter * 997); counter = counter + 1 end
function init(args) index = offset end
function request()
  index = index % #paths + 1
  return wrk.format("GET", prefix .. paths[index])
end
`);
  const measure = (base, prefix) => {
    const output = execFileSync("wrk", ["-t", options.threads, "-c", options.clients, "-d", `${options.seconds}s`,
      "--latency", "-s", script, base], { env: { ...process.env, BENCH_PREFIX: prefix }, encoding: "utf8" });
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]);
    const p99 = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(output);
    const p99ms = p99 ? Number(p99[1]) * { us: 0.001, ms: 1, s: 1000 }[p99[2]] : NaN;
    const errors = /Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? "0";
    if (errors !== "0") throw new Error(`wrk saw ${errors} error responses:\n${output}`);
    return { rps, p99ms };
  };
  // Warm both (page cache, Loupe's file-table cache), then alternate the measured runs.
  measure(sitesOrigin, sitePath);
  measure(`http://127.0.0.1:${nginxPort}`, "/");
  const results = { loupe: [], nginx: [] };
  for (let run = 0; run < Number(options.runs); run++) {
    results.loupe.push(measure(sitesOrigin, sitePath));
    results.nginx.push(measure(`http://127.0.0.1:${nginxPort}`, "/"));
  }
  const best = (list) => list.reduce((a, b) => (b.rps > a.rps ? b : a));
  const loupe = best(results.loupe);
  const peer = best(results.nginx);
  console.log(`serving, ${options.clients} clients (wrk -t${options.threads}), ${options.seconds} s runs, best of ${options.runs}:`);
  console.log(`  Loupe  ${loupe.rps.toFixed(0).padStart(8)} requests/s   p99 ${loupe.p99ms.toFixed(2)} ms   (all runs: ${results.loupe.map((r) => r.rps.toFixed(0)).join(", ")})`);
  console.log(`  nginx  ${peer.rps.toFixed(0).padStart(8)} requests/s   p99 ${peer.p99ms.toFixed(2)} ms   (all runs: ${results.nginx.map((r) => r.rps.toFixed(0)).join(", ")})`);
  const ratio = loupe.rps / peer.rps;
  console.log(`Loupe / nginx requests/s: ${(100 * ratio).toFixed(1)} % (target >= 50 %: ${ratio >= 0.5 ? "met" : "missed"})`);
} finally {
  nginx?.kill("SIGQUIT");
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
