// Loupe's Sqids (plugins/builds/ids/sqids.cpp, through loupe_sqids_tool) against the npm
// `sqids` package Argos writes its public test ids with: the same ids for many numbers (0, 1,
// every number up to 3000, powers of two up to 2^53 - 1, random ones, and the numbers whose first
// candidate id hits the blocklist), the same numbers back from valid and arbitrary strings, and
// the same default blocklist. With Argos's alphabet and minimum length, and two other settings.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const tool = process.env.LOUPE_SQIDS_TOOL;
const skip = !existsSync(join(here, "node_modules/sqids"))
  ? "run npm ci in tests/sqids"
  : !tool
    ? "LOUPE_SQIDS_TOOL is not set (ctest sets it)"
    : null;
if (skip) console.log(`# sqids comparison skipped: ${skip}`);
const { default: Sqids, defaultOptions } = skip ? {} : await import("sqids");

const ARGOS_ALPHABET = "FN5LTPGRW98EB2X3ZYHDCU0AS7KJQV64MO1I";
const MAX = Number.MAX_SAFE_INTEGER;

/** Runs the C++ tool once over all requests; one output line per request. */
function loupe(requests, args = []) {
  const out = execFileSync(tool, args, { input: requests.join("\n") + "\n", encoding: "utf8" });
  return out.split("\n").slice(0, requests.length);
}

// A small deterministic generator, so a failure reproduces.
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function numbersToCheck() {
  const numbers = [];
  for (let n = 0; n <= 3000; n++) numbers.push(n);
  for (let bit = 12; bit < 53; bit++) numbers.push(2 ** bit - 1, 2 ** bit, 2 ** bit + 1);
  numbers.push(MAX - 1, MAX);
  const next = random(19);
  for (let i = 0; i < 1000; i++) numbers.push(Math.floor(next() * MAX));
  for (let i = 0; i < 1000; i++) numbers.push(Math.floor(next() * 1e7));
  return numbers;
}

const settings = [
  { name: "Argos's (alphabet FN5L…, minLength 4)", alphabet: ARGOS_ALPHABET, minLength: 4, args: [] },
  { name: "the default alphabet, minLength 0", alphabet: undefined, minLength: 0 },
  { name: "a 5-letter alphabet, minLength 12", alphabet: "abcde", minLength: 12 },
];

describe("Loupe's Sqids against npm sqids", { skip: skip ?? false }, () => {
  test("the default blocklist is the package's", () => {
    const [line] = loupe(["b"]);
    assert.deepEqual(line.trim().split(" ").sort(), [...defaultOptions.blocklist].sort());
  });

  for (const setting of settings) {
    const sqids = new Sqids({ alphabet: setting.alphabet, minLength: setting.minLength });
    const unblocked = new Sqids({ alphabet: setting.alphabet, minLength: setting.minLength, blocklist: new Set() });
    const args = setting.args ?? [setting.alphabet ?? defaultOptions.alphabet, String(setting.minLength)];

    test(`${setting.name}: the same ids, and the same numbers back`, () => {
      const numbers = numbersToCheck();
      // Numbers whose first candidate is a blocked word: the blocklist changes their id.
      const blocked = [];
      for (let n = 0; n < 200000 && blocked.length < 200; n++) {
        if (sqids.encode([n]) !== unblocked.encode([n])) blocked.push(n);
      }
      if (setting.alphabet === ARGOS_ALPHABET) assert.ok(blocked.length >= 10, `${blocked.length} blocked`);
      const lists = [...numbers, ...blocked].map((n) => [n]);
      const next = random(7);
      for (let i = 0; i < 300; i++) {
        lists.push(Array.from({ length: 1 + Math.floor(next() * 5) }, () => Math.floor(next() * 1e9)));
      }
      const expected = lists.map((list) => sqids.encode(list));
      const actual = loupe(lists.map((list) => `e ${list.join(",")}`), args);
      for (let i = 0; i < lists.length; i++) {
        assert.equal(actual[i], expected[i], `encode([${lists[i]}])`);
      }
      const decoded = loupe(expected.map((id) => `d ${id}`), args);
      for (let i = 0; i < lists.length; i++) {
        assert.equal(decoded[i], lists[i].join(","), `decode(${expected[i]})`);
      }
    });

    test(`${setting.name}: arbitrary strings decode as the package decodes them`, () => {
      const alphabet = setting.alphabet ?? defaultOptions.alphabet;
      const characters = alphabet + "abz-_!";
      const next = random(3);
      const strings = ["", "-", "a"];
      for (let i = 0; i < 3000; i++) {
        const length = 1 + Math.floor(next() * 8);
        let text = "";
        for (let j = 0; j < length; j++) {
          const pool = next() < 0.9 ? alphabet : characters;
          text += pool[Math.floor(next() * pool.length)];
        }
        strings.push(text);
      }
      const actual = loupe(strings.map((text) => `d ${text}`), args);
      for (let i = 0; i < strings.length; i++) {
        // Values past 2^53 lose precision in JavaScript; Loupe refuses them (no such id).
        const numbers = sqids.decode(strings[i]);
        if (numbers.some((n) => n > MAX)) assert.equal(actual[i], "", strings[i]);
        else assert.equal(actual[i], numbers.join(","), `decode(${JSON.stringify(strings[i])})`);
      }
    });
  }
});
