import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * Writes each built asset's brotli and gzip copies beside it (`<file>.br`, `<file>.gz`) at their
 * highest settings, once, at build time: the server sends them as they are (apps/server/src/
 * precompressed.ts) instead of compressing every file for every first visit. Files under 1 kB are
 * left alone, as the server's compression leaves them.
 */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "promptly-precompress",
    apply: "build",
    configResolved(config) {
      // Where Vite wrote the build, wherever the build was started from.
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const assets = join(outDir, "assets");
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg|json)$/.test(name) || statSync(join(assets, name)).size < 1024) continue;
        const content = readFileSync(join(assets, name));
        writeFileSync(join(assets, `${name}.br`), brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
        writeFileSync(join(assets, `${name}.gz`), gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  define: { __APP_VERSION__: JSON.stringify(process.env.npm_package_version ?? "0.1.0") },
  build: {
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    // The lazy routes share many small modules, each its own common chunk by default: a first visit to
    // the dashboard made 56 requests, most of them files under 2 kB, over the browser's six
    // connections. Common chunks under 8 kB are copied into the chunks that read them (one module
    // state and one execution across the copies, kept by Rolldown's runtime registry; no page downloads
    // code it did not reach before): 26 requests, and a cold dashboard load about a fifth faster.
    // Chunks holding styles stay files, as Vite's own setting of this option keeps them.
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          experimentalInlineCommonChunks: { maxSize: 8 * 1024, exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/ },
        },
      },
    },
  },
});
