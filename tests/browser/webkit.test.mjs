// The smoke flow (support/smoke-flow.mjs) in WebKitGTK's MiniBrowser, driven by WebKitWebDriver
// through selenium-webdriver (under xvfb-run: WebKitGTK needs an X display).
import { launchWebKit, missingWebKit } from "./support/engines.mjs";
import { smokeSuite } from "./support/smoke-flow.mjs";

smokeSuite("WebKit", "webkit", { missing: missingWebKit, launch: launchWebKit });
