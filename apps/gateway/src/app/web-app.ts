import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type Express } from 'express';
import { isApiPath } from '@dc/platform';
import { metadataThroughGateway, RECORD_PAGE, type RecordMetadata, recordPageHtml } from './record-page';

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

/**
 * Serves the single-page client at `/`; the API keeps everything under /api. A public record's page
 * (`/records/{id}`) comes with its title, description and schema.org JSON-LD in the HTML
 * (record-page.ts); `recordMetadata` is where they come from (the catalogue, through the gateway).
 */
export function serveWebApp(server: Express, dir = webAppDir(), recordMetadata: RecordMetadata = metadataThroughGateway): boolean {
  if (!existsSync(path.join(dir, 'index.html'))) return false;
  server.get(RECORD_PAGE, (req, res, next) => {
    const recordId = RECORD_PAGE.exec(req.path)![1];
    const depth = req.path.split('/').length - 2;
    Promise.all([readFile(path.join(dir, 'index.html'), 'utf8'), recordMetadata(req, recordId).catch(() => null)])
      .then(([html, dataset]) => {
        res.setHeader('Cache-Control', 'no-cache');
        res.type('html').send(recordPageHtml(html, depth, dataset));
      })
      .catch(next);
  });
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
