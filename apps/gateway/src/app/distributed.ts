import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, createApp, listen, mountMergedOpenApi } from '@dc/platform';
import { mountServiceProxy } from './proxy';
import { mountTokenVerification } from './token-verification';
import { serveWebApp } from './web-app';

@Module({})
class GatewayModule {}

/** Distributed mode: the gateway serves the web app and its health, and proxies the API. */
export async function startDistributedGateway(config: AppConfig, logger: Logger) {
  const app = await createApp({
    service: 'gateway',
    config,
    logger,
    modules: [GatewayModule],
    configure: (nest) => {
      const server = nest.getHttpAdapter().getInstance();
      mountTokenVerification(server, config.SERVICE_URLS.identity, logger);
      mountServiceProxy(server, config.SERVICE_URLS, logger);
      if (config.SERVE_WEB && !serveWebApp(server)) logger.warn('web app not built (npm run build); serving the API only');
    },
  });
  mountMergedOpenApi(app, 'Data Catalogue API', Object.values(config.SERVICE_URLS));
  await listen(app, config, config.PORT, logger, { publicEntry: true });
  return app;
}
