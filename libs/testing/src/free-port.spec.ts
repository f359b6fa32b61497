import { createServer } from 'node:net';
import { freePort } from './process';

/** Holds a port as a server would, until released. */
async function hold(port: number): Promise<() => Promise<void>> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return () => new Promise((resolve) => server.close(() => resolve()));
}

describe('freePort in a jest worker', () => {
  const worker = Number(process.env.JEST_WORKER_ID);
  const blockStart = 20_000 + (worker - 1) * 600;

  it("hands out ports of this worker's own block, below the kernel's ephemeral range, each free", async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    expect(new Set(ports).size).toBe(3);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(blockStart);
      expect(port).toBeLessThan(blockStart + 600);
      const release = await hold(port);
      await release();
    }
  });

  it('passes over a port that something holds', async () => {
    const first = await freePort();
    // The next in turn is held: freePort must not hand it out.
    const next = first + 1 < blockStart + 600 ? first + 1 : blockStart;
    const release = await hold(next);
    try {
      const given = await freePort();
      expect(given).not.toBe(next);
      await (
        await hold(given)
      )();
    } finally {
      await release();
    }
  });
});
