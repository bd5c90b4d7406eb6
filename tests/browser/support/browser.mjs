// Debian's Chromium through playwright-core, as the project's guide prescribes.
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";

export const chromiumPath = process.env.LOUPE_CHROMIUM ?? "/usr/bin/chromium";

export function missingBrowser() {
  return existsSync(chromiumPath) ? null : `no Chromium at ${chromiumPath}`;
}

export async function launchChromium() {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run",
      "--font-render-hinting=none", "--disable-lcd-text"],
  });
}

/** A 1280×720 page at one device pixel per CSS pixel (what the baselines are taken at). */
export async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1, locale: "en-US", timezoneId: "UTC" });
  return context.newPage();
}
