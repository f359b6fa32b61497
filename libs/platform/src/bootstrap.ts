import { DynamicModule, INestApplication, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { AppConfig, loadConfigOrExit, SERVICE_PORTS, ServiceName } from './config/config';
import { withEmbeddedSecrets } from './config/secrets';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { correlationIdMiddleware, requestLogMiddleware } from './logging/context';
import { createLogger, NestPinoLogger } from './logging/logger';
import { mountOpenApi } from './openapi';
import { PlatformModule } from './platform.module';

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
    imports: [PlatformModule.forRoot({ service: options.service, config: options.config, logger: options.logger }), InfrastructureModule.forRoot(), ...options.modules],
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
  // X-Forwarded-For is believed only from the proxies named in TRUST_PROXY (default: loopback), so
  // a client cannot pick the address its login failures are counted against.
  app.set('trust proxy', options.config.TRUST_PROXY);
  if (options.shutdownHooks !== false) app.enableShutdownHooks();
  await options.configure?.(app);
  return app;
}

export async function listen(app: INestApplication, config: AppConfig, port: number, logger: Logger): Promise<void> {
  await app.listen(port, config.HOST);
  logger.info({ port, mode: config.RUN_MODE }, 'listening');
}

/** Distributed mode: one service per process, on PORT or its default port. */
export async function runService(name: ServiceName, modules: AppOptions['modules']): Promise<void> {
  // The gateway needs no database; every service does (its own schema).
  const config = loadConfigOrExit((c) => (c.DATABASE_URL ? [] : ['DATABASE_URL: required to run a service on its own (RUN_MODE=distributed)']));
  const logger = createLogger({ service: name, level: config.LOG_LEVEL });
  try {
    const app = await createApp({ service: name, config: withEmbeddedSecrets(config), logger, modules });
    mountOpenApi(app, `Data Catalogue API: ${name}`);
    await listen(app, config, process.env.PORT ? config.PORT : SERVICE_PORTS[name], logger);
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    process.exit(1);
  }
}
