import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import { isApiPath } from '@dc/platform';

/** Where the built web client lives (npm run build puts it there). */
export function webAppDir(): string {
  return path.resolve(__dirname, '../../../web');
}

const HEALTH_PATH = /^\/health(\/|$)/i;

/**
 * Paths that are never the web app's: the API, the token exchange and health. Passed on without a
 * file lookup, so an API call costs no stat of the disk and no file of the build can shadow a route.
 */
const isWebAppPath = (path: string) => !isApiPath(path) && !HEALTH_PATH.test(path);

/** Serves the single-page client at `/`; the API keeps everything under /api. */
export function serveWebApp(server: Express, dir = webAppDir()): boolean {
  if (!existsSync(path.join(dir, 'index.html'))) return false;
  const files = express.static(dir, {
    index: 'index.html',
    maxAge: '1h',
    setHeaders: (res, file) => {
      if (file.endsWith('index.html')) res.setHeader('Cache-Control', 'no-cache');
    },
  });
  server.use((req, res, next) => (isWebAppPath(req.path) ? files(req, res, next) : next()));
  return true;
}
