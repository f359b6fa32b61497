import type { Worker } from 'node:worker_threads';

/**
 * Worker threads kept between jobs, so the next job finds a warm one (a fresh thread is a cold
 * isolate): at most `max` are kept, each ended after `idleMs` without work, and while kept they do
 * not hold the process open. Used for the CSV threads (csv-thread.ts) and the catalogue's extraction thread.
 */
export class IdleWorkers {
  private readonly idle: Worker[] = [];
  private readonly timers = new Map<Worker, NodeJS.Timeout>();

  constructor(
    private readonly idleMs: number,
    private readonly max = Infinity,
  ) {}

  get size(): number {
    return this.idle.length;
  }

  /** Call once for each worker started: one that exits while kept is forgotten, and its errors are its job's to handle. */
  started(worker: Worker): Worker {
    worker.once('exit', () => this.forget(worker));
    worker.on('error', () => undefined);
    return worker;
  }

  /** A kept worker (holding the process open again), or null. */
  take(): Worker | null {
    const worker = this.idle.pop();
    if (!worker) return null;
    this.clearTimer(worker);
    worker.ref();
    return worker;
  }

  /** Keeps the worker for the next job, or ends it when `max` are kept already. */
  keep(worker: Worker): void {
    if (this.idle.length >= this.max) {
      void worker.terminate();
      return;
    }
    this.idle.push(worker);
    worker.unref();
    const timer = setTimeout(() => {
      if (this.forget(worker)) void worker.terminate();
    }, this.idleMs);
    timer.unref();
    this.timers.set(worker, timer);
  }

  /** Ends every kept worker. */
  async endAll(): Promise<void> {
    const workers = this.idle.splice(0);
    workers.forEach((worker) => this.clearTimer(worker));
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  /** Takes the worker out of the kept ones; false when it was not kept. */
  private forget(worker: Worker): boolean {
    const at = this.idle.indexOf(worker);
    if (at < 0) return false;
    this.idle.splice(at, 1);
    this.clearTimer(worker);
    return true;
  }

  private clearTimer(worker: Worker): void {
    clearTimeout(this.timers.get(worker));
    this.timers.delete(worker);
  }
}
