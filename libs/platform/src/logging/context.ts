import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const CORRELATION_HEADER = 'x-correlation-id';

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/** Runs work (an event handler, a job) under a correlation id so its logs and events carry it. */
export function runWithCorrelationId<T>(correlationId: string | undefined, work: () => T): T {
  return storage.run({ correlationId: correlationId ?? randomUUID() }, work);
}

const validId = /^[A-Za-z0-9._:-]{1,128}$/;

/** Express middleware: takes the caller's correlation id (the gateway's) or makes one, and echoes it. */
export function correlationIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header(CORRELATION_HEADER);
  const correlationId = incoming && validId.test(incoming) ? incoming : randomUUID();
  req.headers[CORRELATION_HEADER] = correlationId;
  res.setHeader(CORRELATION_HEADER, correlationId);
  storage.run({ correlationId }, () => next());
}

/** One structured line per API call (path without its query: signed links carry tokens there). */
export function requestLogMiddleware(logger: { info(obj: object, msg: string): void; debug(obj: object, msg: string): void }) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      // 'finish' fires outside the request's async context, so the id is added explicitly.
      const entry = {
        correlationId: req.header(CORRELATION_HEADER),
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
      };
      if (entry.path.startsWith('/health/')) logger.debug(entry, 'request');
      else logger.info(entry, 'request');
    });
    next();
  };
}
