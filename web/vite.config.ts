import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The dashboard: built into web/dist, which `baton serve` serves at `/`. Everything is bundled (no CDN). */
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
  server: {
    // `vite web` during development: the API, the WebSocket and the OpenAPI document from a running `baton serve`.
    proxy: {
      '/api': 'http://127.0.0.1:7420',
      '/openapi.json': 'http://127.0.0.1:7420',
      '/ws': { target: 'ws://127.0.0.1:7420', ws: true },
    },
  },
});
