import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

const sameOrigin = (target: string): ProxyOptions => ({
  target,
  changeOrigin: true,
  configure: (proxy) => {
    proxy.on('proxyReq', (req) => {
      if (req.getHeader('origin')) req.setHeader('origin', target);
    });
    proxy.on('proxyReqWs', (req) => {
      if (req.getHeader('origin')) req.setHeader('origin', target);
    });
  },
});

/** The dashboard: built into web/dist, which `baton serve` serves at `/`. Everything is bundled (no CDN). */
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
  server: {
    // `vite web` during development: the API, the WebSocket and the OpenAPI document from a running `baton serve`.
    // The server answers only to its own Host and Origin (docs/security.md): the proxy presents the dashboard's
    // requests as the server's own pages would send them.
    proxy: {
      '/api': sameOrigin('http://127.0.0.1:7420'),
      '/openapi.json': sameOrigin('http://127.0.0.1:7420'),
      '/ws': { ...sameOrigin('http://127.0.0.1:7420'), ws: true },
    },
  },
});
