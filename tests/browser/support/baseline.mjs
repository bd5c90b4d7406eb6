// Screenshots of the review page compared with committed baselines by Loupe's own diff engine
// (`loupe diff`, the product reviewing itself). The threshold is Argos's default, 0.5: the
// engine then ignores anti-aliased pixels and colour shifts under 0.15 (YIQ, scaled), and calls
// a page changed only past its ignore floor (about 20 strongly differing pixels on 1280×720).
// Font rasterisation noise stays under that; a moved button, a new colour or a changed word
// does not. LOUPE_UPDATE_BASELINES=1 writes the current screenshots as the new baselines.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const here = new URL("..", import.meta.url).pathname;
export const baselineDir = join(here, "baselines");
export const outputDir = join(here, "output");

export function compareWithBaseline(loupeBin, name, png) {
  mkdirSync(outputDir, { recursive: true });
  const current = join(outputDir, `${name}.png`);
  writeFileSync(current, png);
  const baseline = join(baselineDir, `${name}.png`);
  if (process.env.LOUPE_UPDATE_BASELINES === "1") {
    copyFileSync(current, baseline);
    return { updated: true };
  }
  if (!existsSync(baseline)) throw new Error(`no baseline ${baseline}: run with LOUPE_UPDATE_BASELINES=1 once`);
  const mask = join(outputDir, `${name}.diff.png`);
  // `loupe` opens its data folder (./data) even for `diff`: keep it out of the source tree.
  const run = spawnSync(loupeBin, ["--set", `data.dir=${join(outputDir, "data")}`, "--set", `db.url=sqlite:${join(outputDir, "data", "loupe.db")}`,
    "diff", baseline, current, "--threshold", "0.5", "--json", "--out", mask], { encoding: "utf8", cwd: outputDir });
  if (run.status === 2) throw new Error(`loupe diff failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout);
  return { changed: run.status === 1, result, current, baseline, mask };
}

/** Writes a screenshot to tests/browser/output/ for people to look at (not compared). */
export function keepScreenshot(name, png) {
  mkdirSync(outputDir, { recursive: true });
  writeFileSync(join(outputDir, `${name}.png`), png);
}
