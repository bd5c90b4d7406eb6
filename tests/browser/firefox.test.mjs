// The smoke flow (support/smoke-flow.mjs) in Debian's Firefox ESR, driven by puppeteer-core over
// WebDriver BiDi.
import { launchFirefox, missingFirefox } from "./support/engines.mjs";
import { smokeSuite } from "./support/smoke-flow.mjs";

smokeSuite("Firefox", "firefox", { missing: missingFirefox, launch: launchFirefox });
