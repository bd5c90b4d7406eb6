// gen-site.mjs --out DIR [--files 5000]: a deterministic Storybook-like static build. Most files
// are small JS chunks and CSS, then images, SVG icons, fonts and a few large bundles, with the
// size spread of a real `storybook build` (a few hundred bytes to a few hundred KB).
import { mkdirSync, writeFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { out: { type: "string" }, files: { type: "string", default: "5000" } } });
if (!values.out) throw new Error("gen-site.mjs: --out DIR is required");
const total = Number(values.files);

let state = 0x9e3779b9;
function random() {  // mulberry32: the same site on every machine
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const between = (low, high) => Math.round(low * Math.pow(high / low, random()));  // log-uniform
const id = () => Math.floor(random() * 36 ** 8).toString(36).padStart(8, "0");

const words = ["export", "const", "function", "return", "import", "from", "props", "story", "args", "render",
  "default", "component", "useState", "children", "className", "onClick", "title", "parameters", "=>", "{", "}"];
function code(size) {
  let text = "";
  while (text.length < size) {
    text += `${words[Math.floor(random() * words.length)]} ${words[Math.floor(random() * words.length)]}_${id()}(${id()});\n`;
  }
  return text.slice(0, size);
}
function css(size) {
  let text = "";
  while (text.length < size) {
    text += `.c-${id()}{color:#${id().slice(0, 6)};margin:${Math.floor(random() * 40)}px;display:flex}\n`;
  }
  return text.slice(0, size);
}
function binary(size, header) {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) bytes.writeUInt32LE(Math.floor(random() * 2 ** 32), Math.min(i, size - 4));
  header.copy(bytes, 0);
  return bytes;
}
function svg() {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M${Math.floor(random() * 24)} ${Math.floor(random() * 24)}L${id()}"/></svg>\n`;
}

const marker = `${values.out.replace(/\/$/, "")}.complete`;
if (existsSync(marker) && readFileSync(marker, "utf8") === String(total)) {
  console.log(`gen-site: ${values.out} already holds the ${total}-file site`);
  process.exit(0);
}
rmSync(values.out, { recursive: true, force: true });

const files = [];
const add = (path, content) => files.push([path, content]);
add("index.html", `<!doctype html><html><head><title>Storybook</title><link rel="stylesheet" href="./sb-manager/main.css"></head><body><div id="root"></div><script type="module" src="./sb-manager/runtime.js"></script></body></html>\n`);
add("iframe.html", `<!doctype html><html><body><div id="storybook-root"></div><script type="module" src="./assets/iframe.js"></script></body></html>\n`);
add("project.json", JSON.stringify({ generatedAt: 0, builder: { name: "@storybook/builder-vite" } }));
add("favicon.svg", svg());
for (let i = 0; i < 12; i++) add(`sb-manager/bundle-${i}.js`, code(between(50_000, 400_000)));
add("sb-manager/runtime.js", code(120_000));
add("sb-manager/main.css", css(30_000));
const fixed = files.length + 1;  // + index.json, written last
const images = Math.round((total - fixed) * 0.2);
const icons = Math.round((total - fixed) * 0.06);
const fonts = Math.round((total - fixed) * 0.006);
const styles = Math.round((total - fixed) * 0.1);
const chunks = total - fixed - images - icons - fonts - styles;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const woff2 = Buffer.from("wOF2");
for (let i = 0; i < chunks; i++) add(`assets/${["Button", "Card", "Modal", "Table", "Form"][i % 5]}.stories-${id()}.js`, code(between(400, 40_000)));
for (let i = 0; i < styles; i++) add(`assets/style-${id()}.css`, css(between(300, 12_000)));
for (let i = 0; i < images; i++) add(`static/media/image-${id()}.png`, binary(between(1_000, 80_000), png));
for (let i = 0; i < icons; i++) add(`static/icons/icon-${id()}.svg`, svg());
for (let i = 0; i < fonts; i++) add(`sb-common-assets/font-${id()}.woff2`, binary(between(20_000, 90_000), woff2));
add("index.json", JSON.stringify({ v: 5, entries: Object.fromEntries(files.slice(fixed).map(([path], n) => [`story-${n}`, { importPath: path }])) }));

let bytes = 0;
for (const [path, content] of files) {
  mkdirSync(dirname(join(values.out, path)), { recursive: true });
  writeFileSync(join(values.out, path), content);
  bytes += content.length;
}
writeFileSync(marker, String(total));
console.log(`gen-site: ${files.length} files, ${(bytes / 1048576).toFixed(1)} MiB in ${values.out}`);
