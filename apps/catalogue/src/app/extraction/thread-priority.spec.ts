import { getPriority } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { lowerThisThreadsPriority } from './thread-priority';

/** Runs lowerThisThreadsPriority in a worker thread of its own and answers what it returned. */
function inWorker(by: number): Promise<number | null> {
  const register = path.resolve(__dirname, '../../../../../tools/scripts/register-ts.cjs');
  const source = path.join(__dirname, 'thread-priority.ts');
  const worker = new Worker(
    `require(${JSON.stringify(register)}); const { parentPort, workerData } = require('node:worker_threads'); parentPort.postMessage(require(${JSON.stringify(source)}).lowerThisThreadsPriority(workerData));`,
    { eval: true, workerData: by },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', (value: number | null) => void worker.terminate().then(() => resolve(value)));
    worker.once('error', reject);
  });
}

describe('lowerThisThreadsPriority', () => {
  const linux = process.platform === 'linux';

  (linux ? it : it.skip)('makes the calling thread nicer, and only that thread', async () => {
    const before = getPriority(process.pid);
    expect(await inWorker(3)).toBe(Math.min(19, before + 3));
    expect(getPriority(process.pid)).toBe(before);
  });

  it('leaves the priority alone when asked for no change', () => {
    expect(lowerThisThreadsPriority(0)).toBeNull();
  });
});
