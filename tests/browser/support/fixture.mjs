// The builds the browser reviews: screenshots of small UI cards rendered by Chromium, uploaded
// by the real Argos CLI from a git checkout whose commits have fixed dates (fixed SHAs, so the
// pages look the same on every run).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GitRepo } from "../../e2e/support/cli.mjs";

const fixedDate = "2026-01-15T10:00:00Z";

/** The e2e checkout (main and a branch, both pushed), with fixed commit dates. */
export class Repo extends GitRepo {
  constructor() {
    super({ branch: "feature/checkout" });
  }

  env(extra = {}) {
    return super.env({ GIT_AUTHOR_DATE: fixedDate, GIT_COMMITTER_DATE: fixedDate, ...extra });
  }

  /** Writes `files` ({name: bytes}) into a fresh folder; returns its path. */
  screens(folder, files) {
    const dir = join(this.root, folder);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    return dir;
  }
}

const card = (title, body, accent) => `
  <div style="font:14px/1.4 'DejaVu Sans',sans-serif;padding:24px;background:#f4f5f7;width:560px;height:352px;box-sizing:border-box">
    <div style="background:#fff;border:1px solid #dde;border-radius:8px;padding:20px">
      <h2 style="margin:0 0 8px;font-size:20px;color:#223">${title}</h2>
      <p style="margin:0 0 16px;color:#556">${body}</p>
      <div style="display:flex;gap:8px">
        <span style="background:${accent};color:#fff;padding:8px 14px;border-radius:6px">Continue</span>
        <span style="border:1px solid #ccd;padding:8px 14px;border-radius:6px;color:#334">Cancel</span>
      </div>
      <div style="margin-top:18px;height:70px;background:linear-gradient(90deg,#e8ebf3,#f7f8fb);border-radius:6px"></div>
    </div>
  </div>`;

/** The UI states of the fixture app, by screenshot name. */
export const screens = {
  main: {
    "checkout.png": card("Checkout", "Review your order before paying.", "#2f56d8"),
    "cart.png": card("Your cart", "Three items, ready to ship.", "#2f56d8"),
    "login.png": card("Sign in", "Welcome back. Enter your email to continue.", "#2f56d8"),
    "profile.png": card("Profile", "Name, email and avatar.", "#2f56d8"),
    "settings.png": card("Settings", "Notifications are on.", "#2f56d8"),
  },
  feature: {
    "checkout.png": card("Checkout", "Review your order before paying.", "#1d7a4c"),
    "cart.png": card("Your cart", "Four items, ready to ship today.", "#2f56d8"),
    "login.png": card("Sign in", "Welcome back. Enter your email to continue.", "#2f56d8"),
    "profile.png": card("Profile", "Name, email and avatar.", "#2f56d8"),
    "orders.png": card("Orders", "No order yet.", "#2f56d8"),
  },
};

/** Renders each screen's HTML in Chromium; returns {name: PNG bytes}. */
export async function renderScreens(browser, htmlByName) {
  const context = await browser.newContext({ viewport: { width: 560, height: 352 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const files = {};
  for (const [name, html] of Object.entries(htmlByName)) {
    await page.setContent(`<body style="margin:0">${html}</body>`);
    files[name] = await page.screenshot({ type: "png" });
  }
  await context.close();
  return files;
}
