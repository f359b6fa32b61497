import { DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import type { DataSource, EntityManager, MigrationInterface, MixedList, EntitySchema } from 'typeorm';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@dc/contracts';
import { createMessagingMigration, EventBus, IdempotentConsumer, Outbox, OutboxRelay } from '@dc/messaging';
import { openServiceDataSource } from '@dc/persistence';
import type { AppConfig } from '../config/config';
import { HealthRegistry } from '../health/health';
import { runWithCorrelationId } from '../logging/context';
import { APP_CONFIG, LOGGER } from '../tokens';
import { EventHandler, ServiceDatabase, ServiceEvents, ServiceTransaction } from './service-database';

export interface ServiceRuntimeOptions {
  /** The service's name: its schema, its consumer group, its log field. */
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function | string | EntitySchema>;
  migrations?: Array<new () => MigrationInterface>;
}

const RUNTIME_OPTIONS = Symbol('RUNTIME_OPTIONS');
const DATA_SOURCE = Symbol('SERVICE_DATA_SOURCE');
const OUTBOX_RELAY = Symbol('SERVICE_OUTBOX_RELAY');

class TypeormServiceDatabase extends ServiceDatabase {
  constructor(
    readonly schema: string,
    readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly afterCommit: () => void,
  ) {
    super();
  }

  async transaction<T>(work: (tx: ServiceTransaction) => Promise<T>): Promise<T> {
    const published: EventEnvelope[] = [];
    const result = await this.dataSource.transaction(async (manager) =>
      work({
        manager,
        publish: async (...events: EventEnvelope[]) => {
          await this.outbox.add(manager, events);
          published.push(...events);
        },
      }),
    );
    if (published.length > 0) {
      this.committed(published);
      this.afterCommit();
    }
    return result;
  }
}

/** Relays the service's outbox and feeds its subscriptions; closes them in order on shutdown. */
@Injectable()
class ServiceRuntime implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly handlers = new Map<string, EventHandler>();

  constructor(
    @Inject(RUNTIME_OPTIONS) private readonly options: ServiceRuntimeOptions,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay,
    private readonly bus: EventBus,
    private readonly health: HealthRegistry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Told of every event applied, after its transaction committed. */
  appliedListener: (event: EventEnvelope) => void = () => undefined;

  register(types: string[], handler: EventHandler): void {
    for (const type of types) {
      if (this.handlers.has(type)) throw new Error(`${this.options.name} already handles ${type}`);
      this.handlers.set(type, handler);
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    const name = this.options.name;
    this.health.register(`${name}-database`, async () => {
      await this.dataSource.query('select 1');
    });
    await this.relay.start();
    if (this.handlers.size === 0) return;
    const consumer = new IdempotentConsumer(this.dataSource, name);
    await this.bus.subscribe(name, [...this.handlers.keys()], async (event: EventEnvelope) => {
      const handler = this.handlers.get(event.type);
      if (!handler) return;
      await runWithCorrelationId(event.correlationId, async () => {
        const applied = await consumer.handle(name, event, (manager: EntityManager) => handler(event, manager));
        this.logger.info({ event: event.type, eventId: event.id, consumer: name, applied }, applied ? 'event applied' : 'event already applied');
        if (applied) this.appliedListener(event);
      });
    });
  }

  /** First stop relaying (the bus closes next, in beforeApplicationShutdown) ... */
  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }

  /** ... and only then close the database, so in-flight handlers can finish. */
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

@Injectable()
class RuntimeServiceEvents extends ServiceEvents {
  constructor(private readonly runtime: ServiceRuntime) {
    super();
    runtime.appliedListener = (event) => this.applied(event);
  }
  on(types: string[], handler: EventHandler): void {
    this.runtime.register(types, handler);
  }
}

/**
 * Imported once by each service module. Each import is its own instance, so in embedded mode
 * every service still gets its own schema, outbox and consumer group.
 */
@Module({})
export class ServiceRuntimeModule {
  static forService(options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: ServiceRuntimeModule,
      providers: [
        { provide: RUNTIME_OPTIONS, useValue: options },
        {
          provide: DATA_SOURCE,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => {
            if (!config.DATABASE_URL) throw new Error('DATABASE_URL is not set');
            return openServiceDataSource({
              url: config.DATABASE_URL,
              schema: options.name,
              entities: options.entities,
              migrations: [createMessagingMigration(options.name), ...(options.migrations ?? [])],
              applicationName: `dc-${options.name}`,
            });
          },
        },
        {
          provide: OUTBOX_RELAY,
          inject: [DATA_SOURCE, EventBus, LOGGER],
          useFactory: (dataSource: DataSource, bus: EventBus, logger: Logger) =>
            new OutboxRelay({ dataSource, schema: options.name, bus, logger: logger.child({ component: 'outbox-relay', schema: options.name }) }),
        },
        {
          provide: ServiceDatabase,
          inject: [DATA_SOURCE, OUTBOX_RELAY],
          useFactory: (dataSource: DataSource, relay: OutboxRelay) =>
            new TypeormServiceDatabase(options.name, dataSource, new Outbox(options.name), () => relay.nudge()),
        },
        ServiceRuntime,
        { provide: ServiceEvents, useClass: RuntimeServiceEvents },
      ],
      exports: [ServiceDatabase, ServiceEvents],
    };
  }
}
