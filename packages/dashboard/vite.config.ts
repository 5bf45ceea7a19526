import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/**
 * Brotli (.br) and gzip (.gz) copies of every built asset, made once at build time at the highest
 * settings, so the server sends them as they are and never compresses an asset per request
 * (packages/server/src/dashboard/static.ts, `preCompressed`; docs/performance.md has the sizes).
 */
function precompress(): Plugin {
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const files = Object.keys(bundle).filter((name) => name.startsWith('assets/') && /\.(js|css|svg|json|txt|map)$/.test(name));
      await Promise.all(files.map(async (name) => {
        const path = join(options.dir!, name);
        const bytes = await readFile(path);
        await writeFile(`${path}.br`, await br(bytes, { params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        } }));
        await writeFile(`${path}.gz`, await gz(bytes, { level: 9 }));
      }));
    },
  };
}

/**
 * The stylesheet inside index.html instead of linked from it: a linked stylesheet blocks the first
 * paint for a round trip of its own (562.5 ms on slow 4G), and inline the static shell in
 * index.html paints as soon as the page arrives (docs/performance.md, "The dashboard's first
 * load"). The CSS is 8 KB compressed with the page; the CSP allows inline styles already (Radix
 * positions popovers with them). The .css file stays in assets/ for anything that names it.
 */
function inlineStylesheet(): Plugin {
  return {
    name: 'inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        return html.replace(/<link rel="stylesheet"[^>]*href="\/dashboard\/(assets\/[^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = ctx.bundle?.[file];
          if (!asset || asset.type !== 'asset') return tag;
          return `<style>${String(asset.source)}</style>`;
        });
      },
    },
  };
}

// The server serves dist/ under /dashboard (packages/server/src/dashboard/static.ts): every asset
// URL carries that base, and hashed file names let the server cache them forever.
export default defineConfig({
  base: '/dashboard/',
  plugins: [react(), tailwindcss(), inlineStylesheet(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The CSP allows scripts from our origin only; no inline module-preload polyfill.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1000,
  },
  server: {
    // `npm run dev -w packages/dashboard` next to `npm start`: API calls go to the running server.
    proxy: { '/dashboard/api': 'http://localhost:3000', '/api/v1': 'http://localhost:3000' },
  },
});
