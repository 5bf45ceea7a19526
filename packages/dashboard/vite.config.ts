import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The server serves dist/ under /dashboard (packages/server/src/dashboard/static.ts): every asset
// URL carries that base, and hashed file names let the server cache them forever.
export default defineConfig({
  base: '/dashboard/',
  plugins: [react(), tailwindcss()],
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
