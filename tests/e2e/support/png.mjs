// Minimal PNG encoder (8-bit RGB, no interlace) so the tests need no image files or libraries.
import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** Encodes `rgb` (width*height*3 bytes, row-major) as a PNG file. */
export function encodePng(width, height, rgb) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0; // filter: none
    rgb.copy(raw, y * (width * 3 + 1) + 1, y * width * 3, (y + 1) * width * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * A deterministic image unique to `seed`: a colour gradient with stripes, plus a band of pixels
 * taken from the seed's hash so two seeds never give the same picture, even after the CLI
 * re-encodes it. Noise keeps the file a few KB. `paint: {x, y, width, height}` paints a block.
 */
export function patternPng(seed, { width = 48, height = 40, paint = null } = {}) {
  let state = createHash("sha256").update(String(seed)).digest();
  const random = () => {
    state = createHash("sha256").update(state).digest();
    return state;
  };
  const base = random();
  const rgb = Buffer.alloc(width * height * 3);
  let noise = random();
  let noiseAt = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const stripe = Math.floor((x + y * (base[3] % 3)) / (2 + (base[4] % 6))) % 2;
      if (noiseAt + 3 > noise.length) {
        noise = random();
        noiseAt = 0;
      }
      rgb[i] = (base[0] + x * 4 + stripe * 90 + (noise[noiseAt++] & 0x1f)) & 0xff;
      rgb[i + 1] = (base[1] + y * 5 + (noise[noiseAt++] & 0x1f)) & 0xff;
      rgb[i + 2] = (base[2] + (x ^ y) * 3 + (noise[noiseAt++] & 0x1f)) & 0xff;
    }
  }
  base.copy(rgb, 0, 0, 32); // first pixels: the seed's own hash
  if (paint) {
    // A saturated magenta block: a change no diff threshold can miss.
    for (let y = paint.y; y < paint.y + paint.height; y++) {
      for (let x = paint.x; x < paint.x + paint.width; x++) {
        rgb.set([255, 0, 255], (y * width + x) * 3);
      }
    }
  }
  return encodePng(width, height, rgb);
}
