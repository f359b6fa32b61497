import { connect } from 'node:net';
import path from 'node:path';
import { ensureServerBuild, type EmbeddedProduct, startEmbeddedProduct } from '@dc/testing';
import { activateAndLogin, register } from './flows';

const PASSWORD = 'correct horse battery';

/**
 * SIGTERM (what docker stop, Kubernetes and systemd send) lets a request already under way finish
 * with its answer, stops the outbox relays and the embedded PostgreSQL, and exits 0.
 */
describe('graceful shutdown of the embedded product', () => {
  jest.setTimeout(180_000);
  let product: EmbeddedProduct | undefined;
  const base = () => product!.base;

  beforeAll(async () => {
    ensureServerBuild();
    product = await startEmbeddedProduct('shutdown', { LOG_LEVEL: 'debug' });
  }, 240_000);

  afterAll(async () => {
    await product?.stop('SIGKILL');
  });

  it('finishes an in-flight record creation after SIGTERM, then exits 0 with the outbox stopped', async () => {
    expect((await register(base(), 'stopper', PASSWORD)).status).toBe(201);
    const token = await activateAndLogin(base(), path.join(product!.dataDir, 'mail'), 'stopper', PASSWORD);
    const body = JSON.stringify({ name: 'Written while stopping', description: 'Daily rainfall totals', access: 'OP' });
    const socket = connect(product!.port, '127.0.0.1');
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
    const exited = product!.app.exited;
    product!.app.process.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(await exited).toBe(0);
    const errors = product!.app.lines.filter((line) => /"level":(50|60)/.test(line));
    expect(errors).toEqual([]);
  });
});
