import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';

/**
 * What the web app needs and nothing more: its own scripts and workers, Chakra's runtime styles
 * (emotion writes <style> elements and style attributes, hence 'unsafe-inline' for styles only),
 * images drawn into data:/blob: URLs, calls to its own origin. Nobody may frame a page.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** Paths whose answers are per caller and may carry tokens or secrets: never kept by a cache. */
const API_PATH = /^\/(api|api-token-auth)(\/|$|\?)/i;

/** Whether a URL (path, with or without its query) is the API's or the token exchange's. */
export function isApiPath(url: string): boolean {
  return API_PATH.test(url);
}

/**
 * Headers on every response: CSP, nosniff, X-Frame-Options DENY (with frame-ancestors 'none' for
 * browsers that read CSP), no referrer beyond the origin, and `Cache-Control: no-store` on API
 * answers (a handler may still set its own). CORS stays closed unless CORS_ORIGINS names origins.
 */
export function applySecurityHeaders(app: NestExpressApplication, config: Pick<AppConfig, 'CORS_ORIGINS'>): void {
  app.use(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // The product is served over plain HTTP in development; HSTS belongs to the TLS terminator.
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (isApiPath(req.originalUrl)) res.setHeader('Cache-Control', 'no-store');
    next();
  });
  const origins = corsOrigins(config.CORS_ORIGINS);
  if (origins.length) {
    app.enableCors({
      origin: origins,
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Correlation-Id'],
      exposedHeaders: ['X-Correlation-Id', 'Retry-After'],
      maxAge: 600,
    });
  }
}

export function corsOrigins(value: string): string[] {
  return value
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

const TOO_MANY_CONNECTIONS_BODY = JSON.stringify({ detail: 'Too many connections from your address. Please try again.' });
const TOO_MANY_CONNECTIONS = [
  'HTTP/1.1 503 Service Unavailable',
  'Connection: close',
  'Retry-After: 5',
  'Content-Type: application/json',
  `Content-Length: ${Buffer.byteLength(TOO_MANY_CONNECTIONS_BODY)}`,
  '',
  TOO_MANY_CONNECTIONS_BODY,
].join('\r\n');

/** How often Node checks for late headers: a tenth of the limit, 100 ms to 1 s (a connection is closed at most that late). */
export function headersCheckIntervalMs(headersTimeoutMs: number): number {
  return Math.min(1000, Math.max(100, Math.floor(headersTimeoutMs / 10)));
}

/**
 * Node reads the interval from the server when it starts listening (so this must come before
 * listen); createServer's option is the only documented way to set it, and Nest creates the server
 * without options. http-security.spec.ts fails if a Node release stops reading it.
 */
function setConnectionsCheckingInterval(server: Server, intervalMs: number): void {
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = intervalMs;
}

export interface SlowClientLimits {
  /** Time a client has to send a request's headers (Node's default is 60 s). */
  headersTimeoutMs: number;
  /** Time a request body may go without a byte arriving (Node allows 300 s for the whole request). */
  bodyIdleTimeoutMs: number;
  /** Open connections one address may hold (0: no cap); trusted proxies carry many clients and are exempt. */
  maxConnectionsPerAddress: number;
  /** How long an idle kept-alive connection stays open; announced to clients in Keep-Alive: timeout=. */
  keepAliveTimeoutMs?: number;
}

/**
 * Slow clients cannot hold the server: a connection must deliver a request's headers within
 * headersTimeoutMs, and a body that stops arriving for bodyIdleTimeoutMs ends its connection. A
 * large upload on a slow but steady line is not cut (nothing limits a whole request's duration),
 * nor is a slow handler or a slow download (once a request has fully arrived, idling is the
 * server's own doing). Past the per-address cap, a new connection is answered 503.
 */
export function limitSlowClients(server: Server, limits: SlowClientLimits, isTrustedProxy: (address: string) => boolean, logger: Logger): void {
  // Node measures headersTimeout from a connection's start, or from the first byte of each later
  // request on a kept-alive one, and answers 408; but it looks only every connectionsCheckingInterval
  // (30 s), and the idle timer below restarts at every byte, so a client trickling a header line at a
  // time was held up to 40 s. Checked often, the whole header section must arrive within the limit.
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = 0;
  setConnectionsCheckingInterval(server, headersCheckIntervalMs(limits.headersTimeoutMs));
  if (limits.keepAliveTimeoutMs) server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  const inFlight = new WeakMap<Socket, IncomingMessage>();
  server.on('connection', (socket: Socket) => socket.setTimeout(limits.headersTimeoutMs));
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(req.socket, req);
    req.socket.setTimeout(limits.bodyIdleTimeoutMs);
    res.once('finish', () => {
      inFlight.delete(req.socket);
      // An idle kept-alive connection is Node's to close (keepAliveTimeout, announced to the client);
      // closing it earlier would race a client that reuses it.
      req.socket.setTimeout(Math.max(limits.headersTimeoutMs, server.keepAliveTimeout + 1000));
    });
  });
  // With a listener here, Node leaves the decision to it instead of closing every idle socket.
  server.on('timeout', (socket: Socket) => {
    if (inFlight.get(socket)?.complete) return;
    // A starved event loop runs its timers before it reads what arrived meanwhile: judge the client
    // idle only once those reads are done (setImmediate runs after this turn's I/O).
    const bytesRead = socket.bytesRead;
    setImmediate(() => {
      const req = inFlight.get(socket);
      if (socket.destroyed || req?.complete || socket.bytesRead !== bytesRead) return;
      logger.info({ address: socket.remoteAddress, waitingFor: req ? 'body' : 'headers' }, 'slow client: connection closed');
      socket.destroy();
    });
  });
  if (!limits.maxConnectionsPerAddress) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || isTrustedProxy(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.maxConnectionsPerAddress) {
      logger.warn({ address, limit: limits.maxConnectionsPerAddress }, 'too many connections from one address');
      socket.end(TOO_MANY_CONNECTIONS);
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
