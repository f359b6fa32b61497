import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';

/** Where the built web client lives (npm run build puts it there). */
export function webAppDir(): string {
  return path.resolve(__dirname, '../../../web');
}

/** Serves the single-page client at `/`; the API keeps everything under /api. */
export function serveWebApp(server: Express, dir = webAppDir()): boolean {
  if (!existsSync(path.join(dir, 'index.html'))) return false;
  server.use(express.static(dir, { index: 'index.html', maxAge: '1h', setHeaders: (res, file) => {
    if (file.endsWith('index.html')) res.setHeader('Cache-Control', 'no-cache');
  } }));
  return true;
}
