// deploy/healthcheck.mjs, run for real against a local HTTP server.
import { execFile } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { HEALTH, root } from './deploy-contract';

function runHealthcheck(port: number): Promise<number> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [path.join(root, 'deploy/healthcheck.mjs')], { env: { ...process.env, PORT: String(port) } });
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

describe('deploy/healthcheck.mjs', () => {
  let server: Server;
  let status = 200;
  const paths: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      paths.push(request.url ?? '');
      response.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('exits 0 when /health/ready answers 2xx and 1 when it does not, or nothing listens', async () => {
    const { port } = server.address() as AddressInfo;
    status = 200;
    expect(await runHealthcheck(port)).toBe(0);
    status = 503;
    expect(await runHealthcheck(port)).toBe(1);
    expect(paths).toEqual([HEALTH.ready, HEALTH.ready]);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port: freePort } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await runHealthcheck(freePort)).toBe(1);
  });
});
