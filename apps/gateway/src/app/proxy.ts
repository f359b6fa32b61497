import { Agent } from 'node:http';
import type { Express, NextFunction, Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { CORRELATION_HEADER, ServiceName } from '@dc/platform';
import { routeFor } from './route-table';

/**
 * Distributed mode: forwards each API call to its service, carrying the correlation id and the
 * client's address. The address is the one this gateway worked out under its own TRUST_PROXY
 * (req.ip); whatever X-Forwarded-For the client sent is replaced, not appended to, so a service
 * that trusts the gateway counts login failures against the real client.
 */
export function mountServiceProxy(server: Express, serviceUrls: Record<ServiceName, string>, logger: Logger): void {
  // Connections to the services are kept open and reused: without an agent the proxy opens a new
  // one per call and says "Connection: close" (a TCP handshake, and milliseconds, every time). Node
  // retires an idle one before the service's announced keep-alive timeout ends it.
  const agent = new Agent({ keepAlive: true });
  const proxies = new Map(
    (Object.keys(serviceUrls) as ServiceName[]).map((service) => [
      service,
      createProxyMiddleware<Request, Response>({
        target: serviceUrls[service],
        agent,
        changeOrigin: false,
        xfwd: false,
        proxyTimeout: 190_000,
        on: {
          proxyReq: (proxyReq, req) => {
            const correlationId = req.headers[CORRELATION_HEADER];
            if (typeof correlationId === 'string') proxyReq.setHeader(CORRELATION_HEADER, correlationId);
            if (req.ip) proxyReq.setHeader('x-forwarded-for', req.ip);
            else proxyReq.removeHeader('x-forwarded-for');
            proxyReq.setHeader('x-forwarded-proto', req.protocol);
          },
          error: (error, _req, res) => {
            logger.warn({ service, err: error }, 'service unreachable');
            const response = res as Response;
            if (!response.headersSent) response.status(502).json({ detail: 'The service is temporarily unavailable. Please try again.' });
          },
        },
      }),
    ]),
  );
  server.use((req: Request, res: Response, next: NextFunction) => {
    const service = routeFor(req.method, req.originalUrl);
    if (!service) return next();
    return proxies.get(service)!(req, res, next);
  });
}
