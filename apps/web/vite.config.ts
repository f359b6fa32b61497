import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
// The dev server forwards API calls to the gateway, so `npm run web:dev` works against `npm start`.
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8080';

export default defineConfig({
  root: here,
  // Relative asset paths: the gateway serves the app at `/` and routes live in the hash.
  base: './',
  plugins: [react()],
  resolve: {
    alias: { '@dc/contracts': path.join(repoRoot, 'libs/contracts/src/index.ts') },
  },
  build: {
    outDir: path.join(repoRoot, 'dist/apps/web'),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/ },
            { name: 'chakra', test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@floating-ui|@internationalized|@swc|stylis)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: gateway, changeOrigin: true },
      '/api-token-auth': { target: gateway, changeOrigin: true },
    },
  },
});
