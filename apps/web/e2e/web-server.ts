import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../..');
export const webDist = path.join(repoRoot, 'dist/apps/web');
const webSources = path.join(repoRoot, 'apps/web');

function newestSourceTime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'e2e' || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceTime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the web app with Vite unless dist/apps/web is there and newer than its sources. */
export function ensureWebBuild(): void {
  const index = path.join(webDist, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= newestSourceTime(webSources)) return;
  // vite's package exports do not include its bin, so find it next to its package.json.
  const vite = path.join(path.dirname(require.resolve('vite/package.json', { paths: [repoRoot] })), 'bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: repoRoot,
    stdio: 'inherit',
    // Jest sets NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
}

/** Answers an API call of the test; returns false to fall through to the static files. */
export type ApiHandler = (request: IncomingMessage, body: string, response: ServerResponse) => boolean | Promise<boolean>;

export interface WebServer {
  url: string;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export function sendJson(response: ServerResponse, status: number, body: unknown): true {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
  return true;
}

function readRequestBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/** Serves the built web app (as the gateway does at `/`) plus the test's fake API, on a free loopback port. */
export async function startWebServer(api: ApiHandler, root = webDist): Promise<WebServer> {
  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname.startsWith('/api')) {
        const body = await readRequestBody(request);
        if (!(await api(request, body, response))) sendJson(response, 404, { detail: 'Not found.' });
        return;
      }
      const relative = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
      const file = path.resolve(root, relative);
      if (!file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'Content-Type': contentTypes[path.extname(file)] ?? 'application/octet-stream' });
      response.end(await readFile(file));
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
