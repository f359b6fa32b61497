import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureServerBuild, freePort, RunningProcess, startNode, waitForHttp } from '@dc/testing';
import { activateAndLogin, register } from './flows';

const PASSWORD = 'correct horse battery';

/**
 * SIGTERM (what docker stop, Kubernetes and systemd send) lets a request already under way finish
 * with its answer, stops the outbox relays and the embedded PostgreSQL, and exits 0.
 */
describe('graceful shutdown of the embedded product', () => {
  jest.setTimeout(180_000);
  let dataDir: string;
  let port: number;
  let app: RunningProcess | undefined;
  const base = () => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    ensureServerBuild();
    dataDir = mkdtempSync(path.join(tmpdir(), 'dc-shutdown-'));
    port = await freePort();
    app = startNode('shutdown', 'dist/apps/gateway/src/main.js', {
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(await freePort()),
      LOG_LEVEL: 'debug',
    });
    await waitForHttp(`${base()}/health/ready`, { process: app, timeoutMs: 180_000 });
  }, 240_000);

  afterAll(async () => {
    await app?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes an in-flight record creation after SIGTERM, then exits 0 with the outbox stopped', async () => {
    expect((await register(base(), 'stopper', PASSWORD)).status).toBe(201);
    const token = await activateAndLogin(base(), path.join(dataDir, 'mail'), 'stopper', PASSWORD);
    const body = JSON.stringify({ name: 'Written while stopping', description: 'Daily rainfall totals', access: 'OP' });
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /api/records/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: JWT ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    socket.write(body.slice(0, 10));
    // The request has begun; the stop signal arrives while its body is still coming.
    await new Promise((r) => setTimeout(r, 300));
    const exited = app!.exited;
    app!.process.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(await exited).toBe(0);
    const errors = app!.lines.filter((line) => /"level":(50|60)/.test(line));
    expect(errors).toEqual([]);
  });
});
