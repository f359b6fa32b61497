import { DynamicModule, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppConfig, loadConfigOrExit, SERVICE_PORTS, ServiceName } from './config/config';
import { withEmbeddedSecrets } from './config/secrets';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { correlationIdMiddleware, requestLogMiddleware } from './logging/context';
import { createLogger, NestPinoLogger } from './logging/logger';
import { mountOpenApi } from './openapi';
import { PlatformModule } from './platform.module';
import { installProcessErrorPolicy } from './process/process-error-policy';
import { applySecurityHeaders, limitSlowClients } from './security/http-security';

/**
 * Routes only the product's own processes call (identity's token check for the gateway, in
 * distributed mode). They answer on a service's own port, inside the private network; the gateway
 * process is the public entry point in both run modes, and never answers them.
 */
export const INTERNAL_PATH_PREFIX = '/internal';

/** The path as a router might read it: decoded, dot segments resolved, slashes collapsed, any case. */
function routedPath(url: string): string {
  let path = url.split('?')[0].split(';')[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not decodable: matched as sent.
  }
  return new URL(path.replace(/\/+/g, '/'), 'http://internal.invalid').pathname.replace(/\/+/g, '/').toLowerCase();
}

export function isInternalPath(url: string): boolean {
  const path = routedPath(url);
  return path === INTERNAL_PATH_PREFIX || path.startsWith(`${INTERNAL_PATH_PREFIX}/`);
}

function refuseInternalRoutes(req: Request, res: Response, next: NextFunction): void {
  if (!isInternalPath(req.originalUrl)) return next();
  res.status(404).json({ detail: 'Not found.' });
}

export interface AppOptions {
  service: string;
  config: AppConfig;
  logger: Logger;
  modules: Array<Type<unknown> | DynamicModule>;
  /** Extra Express set-up before the routes (static web app, proxy). */
  configure?: (app: NestExpressApplication) => void | Promise<void>;
  /** Close the app on SIGTERM/SIGINT (off when the caller closes more than the app). */
  shutdownHooks?: boolean;
}

/** Builds a Nest application with the platform, the infrastructure adapters and the given modules. */
export async function createApp(options: AppOptions): Promise<NestExpressApplication> {
  @Module({
    imports: [
      PlatformModule.forRoot({ service: options.service, config: options.config, logger: options.logger }),
      InfrastructureModule.forRoot(),
      ...options.modules,
    ],
  })
  class RootModule {}

  const app = await NestFactory.create<NestExpressApplication>(RootModule, {
    logger: new NestPinoLogger(options.logger.child({ component: 'nest' })),
    bodyParser: true,
    abortOnError: false,
  });
  app.use(correlationIdMiddleware);
  app.use(requestLogMiddleware(options.logger.child({ component: 'http' })));
  app.disable('x-powered-by');
  applySecurityHeaders(app, options.config);
  // In embedded mode every service module runs here, identity's internal routes included: the
  // token check runs in-process (TokenChecks), so nothing outside needs them.
  if (options.service === 'gateway') app.use(refuseInternalRoutes);
  // X-Forwarded-For is believed only from the proxies named in TRUST_PROXY (default: loopback), so
  // a client cannot pick the address its login failures are counted against.
  app.set('trust proxy', options.config.TRUST_PROXY);
  // Stop taking requests and let those under way finish before the modules (token checks, pools,
  // outbox relays) are torn down: Nest's own order closes the HTTP server after them.
  const close = app.close.bind(app);
  app.close = async () => {
    await drainHttpServer(app.getHttpServer());
    await close();
  };
  if (options.shutdownHooks !== false) app.enableShutdownHooks();
  await options.configure?.(app);
  return app;
}

/** How long requests under way get to finish at shutdown before their connections are cut. */
export const SHUTDOWN_GRACE_MS = 25_000;

/** Stops accepting connections, closes idle ones, and resolves once the requests under way have been answered. */
export async function drainHttpServer(server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  if (!server.listening) return;
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  clearTimeout(cut);
}

export async function listen(app: NestExpressApplication, config: AppConfig, port: number, logger: Logger, { publicEntry = false } = {}): Promise<void> {
  // Only the public entry point caps connections per address: behind it, every call comes from the gateway.
  const isTrustedProxy = app.getHttpAdapter().getInstance().get('trust proxy fn') as (address: string, hop: number) => boolean;
  limitSlowClients(
    app.getHttpServer(),
    {
      headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
      bodyIdleTimeoutMs: config.BODY_IDLE_TIMEOUT_MS,
      maxConnectionsPerAddress: publicEntry ? config.MAX_CONNECTIONS_PER_ADDRESS : 0,
      keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
    },
    (address) => isTrustedProxy(address, 0),
    logger,
  );
  await app.listen(port, config.HOST);
  logger.info({ port, mode: config.RUN_MODE }, 'listening');
}

/** Distributed mode: one service per process, on PORT or its default port. */
export async function runService(name: ServiceName, modules: AppOptions['modules']): Promise<void> {
  // The gateway needs no database; every service does (its own schema).
  const config = loadConfigOrExit((c) => (c.DATABASE_URL ? [] : ['DATABASE_URL: required to run a service on its own (RUN_MODE=distributed)']));
  const logger = createLogger({ service: name, level: config.LOG_LEVEL });
  const errorPolicy = installProcessErrorPolicy(logger);
  try {
    const app = await createApp({ service: name, config: withEmbeddedSecrets(config), logger, modules });
    mountOpenApi(app, `Data Catalogue API: ${name}`);
    await listen(app, config, process.env.PORT ? config.PORT : SERVICE_PORTS[name], logger);
    errorPolicy.markStarted();
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    process.exit(1);
  }
}
