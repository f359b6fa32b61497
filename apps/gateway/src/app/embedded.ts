import type { Logger } from 'pino';
import { CatalogueModule } from '@dc/service-catalogue';
import { IdentityModule } from '@dc/service-identity';
import { JobsModule } from '@dc/service-jobs';
import { RelationsModule } from '@dc/service-relations';
import { RequestsModule } from '@dc/service-requests';
import { SearchModule } from '@dc/service-search';
import { startEmbeddedPostgres } from '@dc/persistence';
import { AppConfig, createApp, listen, mountOpenApi, withEmbeddedSecrets } from '@dc/platform';
import { serveWebApp } from './web-app';

export const ALL_SERVICE_MODULES = [IdentityModule, CatalogueModule, SearchModule, RequestsModule, RelationsModule, JobsModule];

/**
 * Embedded mode: one process loads every service module and the gateway. Without DATABASE_URL it
 * runs its own PostgreSQL under DATA_DIR; files, mail and secrets live there too.
 */
export async function startEmbedded(baseConfig: AppConfig, logger: Logger) {
  let config = withEmbeddedSecrets(baseConfig);
  let stopPostgres: (() => Promise<void>) | undefined;
  if (!config.DATABASE_URL) {
    logger.info({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT }, 'starting embedded PostgreSQL');
    const pg = await startEmbeddedPostgres({
      dataDir: config.DATA_DIR,
      port: config.EMBEDDED_PG_PORT,
      log: (line) => logger.debug({ component: 'postgres' }, line),
      warn: (line) => logger.warn({ component: 'postgres' }, line),
      stopOnSignals: false,
    });
    config = { ...config, DATABASE_URL: pg.url };
    stopPostgres = pg.stop;
  }
  const app = await createApp({
    service: 'gateway',
    config,
    logger,
    modules: ALL_SERVICE_MODULES,
    shutdownHooks: !stopPostgres,
    configure: (nest) => {
      if (config.SERVE_WEB && !serveWebApp(nest.getHttpAdapter().getInstance())) logger.warn('web app not built (npm run build); serving the API only');
    },
  });
  if (stopPostgres) {
    const stop = stopPostgres;
    // Nest closes the services first (outbox relays, pools), then the database goes down.
    const close = app.close.bind(app);
    app.close = async () => {
      await close();
      await stop();
    };
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        void app.close().finally(() => process.exit(0));
      });
    }
  }
  mountOpenApi(app, 'Data Catalogue API');
  await listen(app, config, config.PORT, logger, { publicEntry: true });
  return app;
}
