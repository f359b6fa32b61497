import type { Logger } from 'pino';

export interface ProcessErrorPolicy {
  /** From now on an uncaught error is logged and contained; before, it ends the process. */
  markStarted(): void;
  /** Uncaught errors contained since start (for tests and diagnostics). */
  readonly contained: number;
}

interface ProcessLike {
  on(event: 'uncaughtException', listener: (error: unknown) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  exit(code: number): never;
}

/**
 * What happens to an error nobody handled (an `error` event without a listener, a throw in a
 * timer, a rejected promise nobody awaited). Node's default is to end the process, so one bad
 * request would stop the service for everyone.
 *
 * - Before the process serves (start-up: configuration, migrations, listening), such an error is
 *   fatal: it is logged and the process exits with 1, so its supervisor sees a failed start.
 * - Once it serves, the error belongs to one request or one background task: it is logged at
 *   error level with that call's correlation id, and the process goes on serving everyone else.
 *   Every request still has its own error handling (the API exception filter answers 4xx/5xx);
 *   this is the net under it, and each line it logs is a bug to fix.
 *
 * What ends the process after start: SIGTERM/SIGINT (graceful shutdown), and what Node cannot
 * hand to JavaScript (out of memory, a native crash). docs/operations.md says what restarts it.
 */
export function installProcessErrorPolicy(logger: Logger, target: ProcessLike = process): ProcessErrorPolicy {
  let started = false;
  let contained = 0;
  const handle = (kind: 'uncaught exception' | 'unhandled rejection') => (error: unknown) => {
    if (!started) {
      logger.fatal({ err: error, kind }, 'start-up failed');
      target.exit(1);
      return;
    }
    contained++;
    logger.error({ err: error, kind, contained }, 'uncaught error contained; the process goes on serving');
  };
  target.on('uncaughtException', handle('uncaught exception'));
  target.on('unhandledRejection', handle('unhandled rejection'));
  return {
    markStarted: () => {
      started = true;
    },
    get contained() {
      return contained;
    },
  };
}
