import { createHmac } from 'node:crypto';
import { BeforeApplicationShutdown, DynamicModule, Global, Injectable, Module } from '@nestjs/common';
import path from 'node:path';
import type { Logger } from 'pino';
import { EventBus, InProcessEventBus, KafkaEventBus } from '@dc/messaging';
import { FileMailer, Mailer, SmtpMailer } from '@dc/mailer';
import { FsObjectStorage, ObjectStorage, S3ObjectStorage, SignedLinkSigner } from '@dc/storage';
import type { AppConfig } from '../config/config';
import { HealthRegistry } from '../health/health';
import { APP_CONFIG, LOGGER } from '../tokens';

/** Download links get their own key, derived from the JWT secret, so one token kind can't pass for the other. */
export function downloadLinkKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('signed-download-links').digest();
}

/** The adapters behind each port, chosen from validated configuration. */
export function createEventBus(config: AppConfig, logger: Logger): EventBus {
  return config.BUS_DRIVER === 'kafka'
    ? new KafkaEventBus({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID, logger: logger.child({ component: 'kafka' }) })
    : new InProcessEventBus({ logger: logger.child({ component: 'event-bus' }) });
}

export function createObjectStorage(config: AppConfig): ObjectStorage {
  const publicBaseUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  return config.STORAGE_DRIVER === 's3'
    ? new S3ObjectStorage({
        endpoint: config.S3_ENDPOINT!,
        region: config.S3_REGION,
        accessKeyId: config.S3_ACCESS_KEY_ID!,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
        bucket: config.S3_BUCKET,
      })
    : new FsObjectStorage({
        rootDir: path.resolve(config.DATA_DIR, 'files'),
        publicBaseUrl,
        signer: new SignedLinkSigner(downloadLinkKey(config.JWT_SECRET!)),
      });
}

export function createMailer(config: AppConfig, logger: Logger): Mailer {
  return config.MAIL_DRIVER === 'smtp'
    ? new SmtpMailer({ url: config.SMTP_URL!, defaultFrom: config.MAIL_FROM })
    : new FileMailer({
        directory: path.resolve(config.DATA_DIR, 'mail'),
        defaultFrom: config.MAIL_FROM,
        logger: { log: (line: string) => logger.info({ component: 'mail' }, line) },
      });
}

@Injectable()
class InfrastructureLifecycle implements BeforeApplicationShutdown {
  constructor(
    private readonly bus: EventBus,
    storage: ObjectStorage,
    health: HealthRegistry,
  ) {
    health.register('event-bus', () => bus.check());
    health.register('object-storage', () => storage.check());
  }

  /** After the relays stopped (onModuleDestroy), before the databases close (onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}

@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        {
          provide: EventBus,
          inject: [APP_CONFIG, LOGGER],
          useFactory: async (config: AppConfig, logger: Logger) => {
            const bus = createEventBus(config, logger);
            await bus.start();
            return bus;
          },
        },
        { provide: ObjectStorage, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createObjectStorage(config) },
        { provide: Mailer, inject: [APP_CONFIG, LOGGER], useFactory: (config: AppConfig, logger: Logger) => createMailer(config, logger) },
        InfrastructureLifecycle,
      ],
      exports: [EventBus, ObjectStorage, Mailer],
    };
  }
}
