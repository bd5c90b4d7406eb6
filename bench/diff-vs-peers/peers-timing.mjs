// peers-timing.mjs: the node side of run.sh (padding, odiff --server, pixelmatch).
//
//   node peers-timing.mjs pad LIST OUTDIR
//       LIST rows are "name<TAB>base.png<TAB>head.png". Pairs whose sides differ in size are
//       padded to the larger width and height (transparent black, top-left), as Argos does
//       before it calls odiff. Prints "name<TAB>base<TAB>head<TAB>width<TAB>height" with the
//       files every peer should compare.
//   node peers-timing.mjs odiff-server PADDED_LIST RUNS ODIFF_BINARY
//       Both Argos passes through one `odiff --server` (no process start per diff). Prints
//       "name<TAB>srv1_ms<TAB>srv2_ms<TAB>srv1_count<TAB>srv2_count" (median ms per pass).
//   node peers-timing.mjs pixelmatch PADDED_LIST RUNS
//       pixelmatch() alone on RGBA decoded beforehand (threshold 0.1, includeAA false, full diff
//       written to an in-memory buffer). Prints "name<TAB>pm_ms<TAB>pm_count".
//
// Every timing is a median of RUNS runs after one untimed warm-up on the same pair.
// Modules come from bench/node_modules (`npm ci` in bench/), or BENCH_NODE_MODULES.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = process.env.BENCH_NODE_MODULES || path.join(here, '..', 'node_modules');
const require = createRequire(path.join(modules, '..', 'package.json'));
const { PNG } = require(path.join(modules, 'pngjs'));

const readList = (file) =>
  fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => line.split('\t'));
const decode = (file) => PNG.sync.read(fs.readFileSync(file));
const elapsedMs = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function medianMs(runs, fn) {
  await fn(); // warm-up
  const times = [];
  for (let r = 0; r < runs; r++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(elapsedMs(start));
  }
  return median(times);
}

function padTopLeft(image, width, height) {
  const out = new PNG({ width, height }); // zero-filled: transparent black
  const rowBytes = image.width * 4;
  for (let y = 0; y < image.height; y++) {
    image.data.copy(out.data, y * width * 4, y * rowBytes, (y + 1) * rowBytes);
  }
  return out;
}

function pad(listFile, outDir) {
  for (const [name, basePath, headPath] of readList(listFile)) {
    const base = decode(basePath);
    const head = decode(headPath);
    const width = Math.max(base.width, head.width);
    const height = Math.max(base.height, head.height);
    const files = [basePath, headPath].map((file, i) => {
      const image = i === 0 ? base : head;
      if (image.width === width && image.height === height) return file;
      const padded = path.join(outDir, `${name}.${i === 0 ? 'base' : 'head'}.padded.png`);
      fs.writeFileSync(padded, PNG.sync.write(padTopLeft(image, width, height)));
      return padded;
    });
    console.log([name, ...files, width, height].join('\t'));
  }
}

// A minimal client for odiff's server protocol: one JSON request per line on stdin, one JSON
// response per line on stdout, {"ready":true} first.
function startOdiffServer(binary) {
  const child = spawn(binary, ['--server'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const resolve = waiting.shift();
    if (resolve) resolve(JSON.parse(line));
  });
  const nextLine = () => new Promise((resolve) => waiting.push(resolve));
  let requestId = 0;
  return {
    ready: nextLine(),
    async diff(base, compare, output, threshold) {
      const reply = nextLine();
      const options = { threshold, antialiasing: true, outputDiffMask: true };
      child.stdin.write(`${JSON.stringify({ requestId: ++requestId, base, compare, output, options })}\n`);
      const response = await reply;
      if (response.error) throw new Error(`odiff --server: ${response.error}`);
      return response.match ? 0 : response.diffCount;
    },
    stop() {
      child.stdin.end();
      child.kill();
    },
  };
}

async function odiffServer(listFile, runs, binary) {
  const server = startOdiffServer(binary);
  const ready = await server.ready;
  if (!ready.ready) throw new Error('odiff --server did not report ready');
  const outDir = fs.mkdtempSync('/tmp/loupe-odiff-server-');
  try {
    for (const [name, base, head] of readList(listFile)) {
      const row = [name];
      const counts = [];
      for (const [pass, threshold] of [[1, 0.15], [2, 0.0225]]) {
        const output = path.join(outDir, `pass${pass}.png`);
        row.push((await medianMs(runs, async () => {
          counts[pass - 1] = await server.diff(base, head, output, threshold);
        })).toFixed(3));
      }
      console.log([...row, ...counts].join('\t'));
    }
  } finally {
    server.stop();
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

async function pixelmatchRows(listFile, runs) {
  const modulePath = path.join(modules, 'pixelmatch', 'index.js');
  const pixelmatch = (await import(pathToFileURL(modulePath).href)).default;
  for (const [name, basePath, headPath] of readList(listFile)) {
    const base = decode(basePath);
    const head = decode(headPath);
    const output = new Uint8Array(base.data.length);
    let count = 0;
    const ms = await medianMs(runs, () => {
      count = pixelmatch(base.data, head.data, output, base.width, base.height, {
        threshold: 0.1,
        includeAA: false,
      });
    });
    console.log([name, ms.toFixed(3), count].join('\t'));
  }
}

const [mode, list, arg, binary] = process.argv.slice(2);
if (mode === 'pad' && list && arg) {
  pad(list, arg);
} else if (mode === 'odiff-server' && list && binary) {
  await odiffServer(list, Number(arg), binary);
} else if (mode === 'pixelmatch' && list) {
  await pixelmatchRows(list, Number(arg || 3));
} else {
  console.error('usage: node peers-timing.mjs pad LIST OUTDIR | odiff-server LIST RUNS ODIFF | pixelmatch LIST RUNS');
  process.exit(2);
}
