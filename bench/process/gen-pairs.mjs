// gen-pairs.mjs: makes N distinct screenshot pairs out of the 26-pair rendered corpus (for the
// processing benchmark). Pair i starts from corpus pair i % 26 and:
//   - writes a pair-specific colour into the top-left pixel of BOTH images, so the pair's real
//     change is kept and every pair's files are its own (own SHA-256);
//   - variant i % 5: 0-2 nothing more; 3 "moved-block": a block of the head page (one holding
//     content) moves down 12 px; 4 "recolour": the dark (text) pixels of a small box of the
//     head turn red, like a changed link or badge colour;
//   - when base and head still encode to the same bytes (an identical corpus pair with no extra
//     change), the head gets a tEXt chunk naming the pair: same pixels, different file, as when a
//     tool stamps metadata. So every one of the 2N files has its own SHA-256 and every pair
//     needs a diff, in Loupe as in Argos (both skip only pairs with equal keys).
// Images are re-encoded with pngjs as 8-bit RGB (the corpus's colour type), zlib level 6, adaptive
// filters: sizes within a few % of Chromium's files.
//
//   node gen-pairs.mjs --count N --corpus DIR --out DIR [--jobs 2]
//
// Output: OUT/pair-NNNN.{base,head}.png and OUT/pair-NNNN.json (written last: a pair is complete
// when its .json exists). Pairs already present are kept, so reruns and larger counts only make
// what is missing. OUT/VERSION changes when the recipe changes; a different one empties OUT.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';

const RECIPE = 'loupe-process-pairs v1 (marker top-left, variants i%5, RGB zlib6 adaptive, tEXt on identical)';
const here = path.dirname(fileURLToPath(import.meta.url));
const modules = process.env.BENCH_NODE_MODULES || path.join(here, '..', 'node_modules');
const require = createRequire(path.join(modules, '..', 'package.json'));
const { PNG } = require(path.join(modules, 'pngjs'));

const { values: opts } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    corpus: { type: 'string', default: path.join(here, '..', 'corpus') },
    out: { type: 'string', default: path.join(here, 'pairs') },
    jobs: { type: 'string', default: String(Math.min(2, os.availableParallelism())) },
    worker: { type: 'boolean', default: false },
  },
});
const COUNT = Number(opts.count);
const OUT = path.resolve(opts.out);
const CORPUS = path.resolve(opts.corpus);

const pairId = (i) => `pair-${String(i).padStart(4, '0')}`;
const VARIANTS = ['plain', 'plain', 'plain', 'moved-block', 'recolour'];

function readCorpus() {
  const lines = fs.readFileSync(path.join(CORPUS, 'corpus.tsv'), 'utf8').split('\n').filter(Boolean);
  return lines.slice(1).map((line) => {
    const [name, , , , , expected, , change] = line.split('\t');
    return { name, expected, change };
  });
}

// --- image edits on RGBA buffers (pngjs decodes to RGBA) ---------------------------------------

function setPixel(img, x, y, [r, g, b]) {
  const o = (y * img.width + x) * 4;
  img.data[o] = r;
  img.data[o + 1] = g;
  img.data[o + 2] = b;
  img.data[o + 3] = 255;
}

/** Share of pixels in the box that differ from its top-left pixel (0..1). */
function contentShare(img, x0, y0, w, h) {
  const ref = (y0 * img.width + x0) * 4;
  let differing = 0;
  for (let y = y0; y < y0 + h; y += 2) {
    for (let x = x0; x < x0 + w; x += 2) {
      const o = (y * img.width + x) * 4;
      if (Math.abs(img.data[o] - img.data[ref]) + Math.abs(img.data[o + 1] - img.data[ref + 1]) +
          Math.abs(img.data[o + 2] - img.data[ref + 2]) > 30) differing++;
    }
  }
  return differing / (Math.ceil(w / 2) * Math.ceil(h / 2));
}

/** A box of w x h holding content (deterministic per pair), or null. */
function findBox(img, i, w, h, minShare) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const seed = i * 7919 + attempt * 104729;
    const x0 = 8 + (seed % Math.max(1, img.width - w - 16));
    const y0 = 8 + ((seed * 31) % Math.max(1, img.height - h - 40));
    if (x0 + w > img.width || y0 + h + 12 > img.height) continue;
    if (contentShare(img, x0, y0, w, h) >= minShare) return { x0, y0 };
  }
  return null;
}

/** Moves a content block of the head down by 12 px; the strip it leaves takes the block's top row colour. */
function moveBlock(img, i) {
  const w = Math.min(240, img.width >> 2);
  const h = Math.min(80, img.height >> 3);
  const box = findBox(img, i, w, h, 0.08);
  if (!box) return null;
  const { x0, y0 } = box;
  const dy = 12;
  const rowBytes = w * 4;
  for (let y = y0 + h - 1; y >= y0; y--) { // bottom-up: source and target overlap
    const from = (y * img.width + x0) * 4;
    img.data.copy(img.data, ((y + dy) * img.width + x0) * 4, from, from + rowBytes);
  }
  const fill = (y0 * img.width + x0) * 4;
  for (let y = y0; y < y0 + dy; y++) {
    for (let x = x0; x < x0 + w; x++) img.data.copy(img.data, (y * img.width + x) * 4, fill, fill + 4);
  }
  return `block ${w}x${h} at (${x0},${y0}) moved down ${dy}px`;
}

/** Turns the dark pixels of a small box red (a changed text colour). */
function recolour(img, i) {
  const w = Math.min(120, img.width >> 3);
  const h = Math.min(28, img.height >> 4);
  const box = findBox(img, i, w, h, 0.05);
  if (!box) return null;
  const { x0, y0 } = box;
  let changed = 0;
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const o = (y * img.width + x) * 4;
      const luma = 0.299 * img.data[o] + 0.587 * img.data[o + 1] + 0.114 * img.data[o + 2];
      if (luma < 140) {
        img.data[o] = 200;
        img.data[o + 1] = 30 + (img.data[o + 1] >> 3);
        img.data[o + 2] = 30 + (img.data[o + 2] >> 3);
        changed++;
      }
    }
  }
  return changed ? `${changed} dark pixels of box ${w}x${h} at (${x0},${y0}) turned red` : null;
}

const encode = (img) =>
  PNG.sync.write(img, { colorType: 2, inputColorType: 6, inputHasAlpha: true, deflateLevel: 6, deflateStrategy: 0 });

/** The PNG with a tEXt chunk (Comment=text) inserted after IHDR. */
function withTextChunk(png, text) {
  const data = Buffer.from(`Comment\0${text}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'ascii');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(zlib.crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  const ihdrEnd = 8 + 12 + 13;
  return Buffer.concat([png.subarray(0, ihdrEnd), chunk, png.subarray(ihdrEnd)]);
}

const cloneImage = (img) => ({ width: img.width, height: img.height, data: Buffer.from(img.data) });
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function writeAtomic(file, bytes) {
  fs.writeFileSync(`${file}.tmp`, bytes);
  fs.renameSync(`${file}.tmp`, file);
}

/** Makes every missing pair i < count with i % 26 == c. */
function makeCorpusPair(corpus, c, count) {
  const entry = corpus[c];
  const missing = [];
  for (let i = c; i < count; i += corpus.length) {
    if (!fs.existsSync(path.join(OUT, `${pairId(i)}.json`))) missing.push(i);
  }
  if (!missing.length) return 0;
  const base = PNG.sync.read(fs.readFileSync(path.join(CORPUS, `${entry.name}.base.png`)));
  const head = PNG.sync.read(fs.readFileSync(path.join(CORPUS, `${entry.name}.head.png`)));
  for (const i of missing) {
    const b = cloneImage(base);
    const h = cloneImage(head);
    const marker = [i & 0xff, (i >> 8) & 0xff, 0x5a];
    setPixel(b, 0, 0, marker);
    setPixel(h, 0, 0, marker);
    const variant = VARIANTS[i % VARIANTS.length];
    let extra = null;
    if (variant === 'moved-block') extra = moveBlock(h, i);
    if (variant === 'recolour') extra = recolour(h, i);
    const baseBytes = encode(b);
    let headBytes = encode(h);
    let textChunk = false;
    if (baseBytes.equals(headBytes)) {
      headBytes = withTextChunk(headBytes, `loupe bench ${pairId(i)} head`);
      textChunk = true;
    }
    const id = pairId(i);
    writeAtomic(path.join(OUT, `${id}.base.png`), baseBytes);
    writeAtomic(path.join(OUT, `${id}.head.png`), headBytes);
    const meta = {
      index: i,
      id,
      corpus: entry.name,
      corpusExpected: entry.expected,
      corpusChange: entry.change,
      variant: extra ? variant : 'plain',
      extraChange: extra,
      headTextChunk: textChunk,
      base: { file: `${id}.base.png`, width: b.width, height: b.height, bytes: baseBytes.length, sha256: sha256(baseBytes) },
      head: { file: `${id}.head.png`, width: h.width, height: h.height, bytes: headBytes.length, sha256: sha256(headBytes) },
    };
    writeAtomic(path.join(OUT, `${id}.json`), `${JSON.stringify(meta)}\n`);
  }
  return missing.length;
}

if (opts.worker) {
  // Child: receives corpus indices, answers with the number of pairs made.
  const corpus = readCorpus();
  process.on('message', (c) => {
    if (c === null) process.exit(0);
    process.send({ c, made: makeCorpusPair(corpus, c, COUNT) });
  });
} else {
  fs.mkdirSync(OUT, { recursive: true });
  const versionFile = path.join(OUT, 'VERSION');
  const version = fs.existsSync(versionFile) ? fs.readFileSync(versionFile, 'utf8').trim() : null;
  if (version !== RECIPE) {
    for (const file of fs.readdirSync(OUT)) fs.rmSync(path.join(OUT, file), { recursive: true, force: true });
    fs.writeFileSync(versionFile, `${RECIPE}\n`);
  }
  const corpus = readCorpus();
  if (corpus.length !== 26) console.error(`gen-pairs: ${corpus.length} corpus pairs (expected 26); pair i uses i % ${corpus.length}`);
  let missing = 0;
  for (let i = 0; i < COUNT; i++) if (!fs.existsSync(path.join(OUT, `${pairId(i)}.json`))) missing++;
  if (missing) {
    const started = performance.now();
    console.error(`gen-pairs: making ${missing} of ${COUNT} pairs in ${OUT} (${opts.jobs} processes)`);
    // Largest corpus pairs first, handed out one at a time to balance the processes.
    const order = corpus.map((entry, c) => ({ c, size: fs.statSync(path.join(CORPUS, `${entry.name}.base.png`)).size }))
      .sort((a, b) => b.size - a.size).map((x) => x.c);
    let made = 0;
    await Promise.all(Array.from({ length: Math.max(1, Number(opts.jobs)) }, () => new Promise((resolve, reject) => {
      const child = fork(fileURLToPath(import.meta.url), ['--worker', '--count', String(COUNT), '--corpus', CORPUS, '--out', OUT]);
      const next = () => child.send(order.length ? order.shift() : null);
      child.on('message', ({ made: n }) => { made += n; next(); });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`gen-pairs worker exited ${code}`))));
      next();
    })));
    console.error(`gen-pairs: made ${made} pairs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // Every file must be distinct.
  const seen = new Map();
  for (let i = 0; i < COUNT; i++) {
    const meta = JSON.parse(fs.readFileSync(path.join(OUT, `${pairId(i)}.json`), 'utf8'));
    for (const side of [meta.base, meta.head]) {
      if (seen.has(side.sha256)) throw new Error(`gen-pairs: ${side.file} has the same SHA-256 as ${seen.get(side.sha256)}`);
      seen.set(side.sha256, side.file);
    }
  }
}
