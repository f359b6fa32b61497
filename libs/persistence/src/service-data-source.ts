import { DataSource, MigrationInterface, MixedList, EntitySchema } from 'typeorm';

export interface ServiceDataSourceOptions {
  url: string;
  /** Each service owns one PostgreSQL schema and touches no other. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function | string | EntitySchema>;
  migrations?: Array<new () => MigrationInterface>;
  poolSize?: number;
  applicationName?: string;
}

const schemaName = /^[a-z][a-z0-9_]{0,62}$/;

/** Opens a TypeORM data source bound to the service's schema and applies its migrations. */
export async function openServiceDataSource(options: ServiceDataSourceOptions): Promise<DataSource> {
  if (!schemaName.test(options.schema)) throw new Error(`Invalid schema name "${options.schema}"`);
  // The schema must exist before TypeORM looks for its migrations table inside it.
  const bootstrap = new DataSource({ type: 'postgres', url: options.url });
  await bootstrap.initialize();
  try {
    await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
  } finally {
    await bootstrap.destroy();
  }
  const dataSource = new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities ?? [],
    migrations: options.migrations ?? [],
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    logging: false,
    poolSize: options.poolSize ?? 10,
    applicationName: options.applicationName ?? options.schema,
  });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}
