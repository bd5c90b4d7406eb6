// The review page is served by the web plugin under /_loupe/ (assets) from the folder the build
// writes next to the plugin: LOUPE_WEB_OUT_DIR, set by CMake.
import { defineConfig } from "vite";

export default defineConfig({
  base: "/_loupe/",
  build: {
    outDir: process.env.LOUPE_WEB_OUT_DIR ?? "dist",
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
});
