// Firefox and WebKit behind the adapter the smoke flow uses ({goto, url, waitFor, evaluate,
// click, press, screenshot, close}). Firefox: Debian's firefox-esr driven by puppeteer-core over
// WebDriver BiDi. WebKit: Debian's WebKitGTK MiniBrowser driven by WebKitWebDriver (W3C
// WebDriver) through selenium-webdriver; it needs an X display (the ctest runs it under
// xvfb-run).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";

export const firefoxPath = process.env.LOUPE_FIREFOX ?? "/usr/bin/firefox-esr";
export const webkitDriverPath = process.env.LOUPE_WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver";
export const miniBrowserPath = process.env.LOUPE_WEBKIT_BROWSER ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

const waitTimeoutMs = 15_000;

export function missingFirefox() {
  return existsSync(firefoxPath) ? null : `no Firefox at ${firefoxPath} (apt-get install firefox-esr)`;
}

export function missingWebKit() {
  if (!existsSync(webkitDriverPath)) return `no WebKitWebDriver at ${webkitDriverPath} (apt-get install webkit2gtk-driver)`;
  if (!existsSync(miniBrowserPath)) return `no MiniBrowser at ${miniBrowserPath} (libwebkit2gtk-4.1-0)`;
  if (!process.env.DISPLAY) return "no X display for WebKitGTK (run under xvfb-run)";
  return null;
}

export async function launchFirefox() {
  const started = Date.now();
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: firefoxPath,
    headless: true,
    extraPrefsFirefox: { "intl.accept_languages": "en-US", "browser.aboutwelcome.enabled": false },
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 720 });
  console.log(`# Firefox started in ${Date.now() - started} ms`);
  return {
    name: `Firefox ${(await browser.version()).replace(/^firefox\//, "")}`,
    goto: (url) => page.goto(url),
    url: async () => page.url(),
    waitFor: (js) => page.waitForFunction(js, { timeout: waitTimeoutMs }),
    evaluate: (js) => page.evaluate(js),
    click: (css) => page.click(css),
    press: (key) => page.keyboard.press(key),
    screenshot: async () => Buffer.from(await page.screenshot({ type: "png" })),
    close: () => browser.close(),
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForDriver(url, driverProcess) {
  for (const deadline = Date.now() + 20_000; ; ) {
    if (driverProcess.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${driverProcess.exitCode}`);
    try {
      const response = await fetch(`${url}/status`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("WebKitWebDriver did not answer in 20 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function launchWebKit() {
  const started = Date.now();
  const { Builder, By, Key, until } = await import("selenium-webdriver");
  const port = await freePort();
  const driverProcess = spawn(webkitDriverPath, [`--port=${port}`, "--host=local"], { stdio: "ignore" });
  const server = `http://127.0.0.1:${port}`;
  let driver;
  try {
    await waitForDriver(server, driverProcess);
    driver = await new Builder()
      .usingServer(server)
      .withCapabilities({ browserName: "MiniBrowser", "webkitgtk:browserOptions": { binary: miniBrowserPath, args: ["--automation"] } })
      .build();
    await driver.manage().window().setRect({ width: 1280, height: 720 });
  } catch (error) {
    driverProcess.kill();
    throw error;
  }
  const keys = { Escape: Key.ESCAPE, Enter: Key.ENTER, ArrowRight: Key.ARROW_RIGHT, ArrowLeft: Key.ARROW_LEFT };
  const version = (await driver.getCapabilities()).get("browserVersion");
  console.log(`# WebKit started in ${Date.now() - started} ms`);
  return {
    name: `WebKitGTK ${version}`,
    goto: (url) => driver.get(url),
    url: () => driver.getCurrentUrl(),
    waitFor: (js) => driver.wait(() => driver.executeScript(`return Boolean(${js})`), waitTimeoutMs, `waiting for ${js}`),
    evaluate: (js) => driver.executeAsyncScript(`const done = arguments[arguments.length - 1]; Promise.resolve(${js}).then(done, (e) => done(String(e)));`),
    click: async (css) => (await driver.wait(until.elementLocated(By.css(css)), waitTimeoutMs)).click(),
    press: (key) => driver.actions().sendKeys(keys[key] ?? key).perform(),
    // Two animation frames first: WebKit otherwise captures images still being decoded.
    screenshot: async () => {
      await driver.executeAsyncScript("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()));");
      return Buffer.from(await driver.takeScreenshot(), "base64");
    },
    close: async () => {
      try {
        await driver.quit();
      } finally {
        driverProcess.kill();
      }
    },
  };
}
