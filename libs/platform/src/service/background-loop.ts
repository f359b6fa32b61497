/**
 * Runs a queue's work in the background, one step at a time: on a poll interval and when nudged
 * (an event was applied). A step answers whether it did something; the loop goes on until one did
 * nothing. Stopping aborts the step in progress (its signal) and waits for the loop to end.
 */
export class BackgroundLoop {
  private timer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private again = false;
  private stopped = true;
  private abort = new AbortController();

  constructor(
    private readonly step: (signal: AbortSignal) => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
    private readonly pollIntervalMs: number,
  ) {}

  start(): void {
    this.stopped = false;
    this.abort = new AbortController();
    this.timer = setInterval(() => this.nudge(), this.pollIntervalMs);
    this.timer.unref();
    this.nudge();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.abort.abort(new Error('stopping'));
    await this.draining;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /**
   * For event handlers, which run before their transaction commits: looks at the queue a moment
   * later, and once more a second later for a slow commit; what both miss, the next poll finds.
   */
  nudgeAfterCommit(): void {
    for (const delay of [50, 1000]) setTimeout(() => this.nudge(), delay).unref();
  }

  /** Looks at the queue now. */
  nudge(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    });
  }

  /** Resolves once the queue has nothing due (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.step(this.abort.signal)));
    } catch (error) {
      if (!this.stopped) this.onError(error);
    }
  }
}
