import { Test } from '@nestjs/testing';
import type { INestApplication } from '@nestjs/common';
import { describeInfra, eventually, isKcatInstalled, KafkaMock, kafkaBusEnv, s3StorageEnv, startKafkaMock, startS3rver, TestS3Server } from '@dc/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import request from 'supertest';
import { loadConfig } from '../config/config';
import { createLogger } from '../logging/logger';
import { PlatformModule } from '../platform.module';
import { InfrastructureModule } from './infrastructure.module';

/** An app with only the platform and the adapters the environment selects, as every service has. */
async function appWith(env: Record<string, string>): Promise<INestApplication> {
  const config = { ...loadConfig(env), JWT_SECRET: 'x'.repeat(40) };
  const logger = createLogger({ service: 'test', destination: new Writable({ write: (_chunk, _enc, done) => done() }) });
  const moduleRef = await Test.createTestingModule({
    imports: [PlatformModule.forRoot({ service: 'test', config, logger }), InfrastructureModule.forRoot()],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

const readiness = async (app: INestApplication) => {
  const response = await request(app.getHttpServer()).get('/health/ready');
  return { status: response.status, body: response.body as { status: string; checks: Record<string, string> } };
};

describe('readiness of the event bus and object storage: in-process bus, files on disk', () => {
  let dataDir: string;
  let app: INestApplication | undefined;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dc-ready-'));
  });
  afterEach(async () => {
    await app?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is ready while the files directory is writable, and answers 503 naming storage when it is not', async () => {
    app = await appWith({ DATA_DIR: dataDir });
    expect(await readiness(app)).toEqual({ status: 200, body: { status: 'ok', checks: { 'event-bus': 'up', 'object-storage': 'up' } } });

    await rm(join(dataDir, 'files'), { recursive: true, force: true });
    await writeFile(join(dataDir, 'files'), 'a file where the directory should be');
    const down = await readiness(app);
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('unavailable');
    expect(down.body.checks['event-bus']).toBe('up');
    expect(down.body.checks['object-storage']).toMatch(/^down: .*(EEXIST|ENOTDIR)/);
  });
});

describeInfra('readiness of the event bus and object storage: kafka, s3', isKcatInstalled() || 'kcat is not installed (apt-get install kcat)', () => {
  let kafka: KafkaMock;
  let s3: TestS3Server;
  let app: INestApplication | undefined;
  const started: { stop(): Promise<void> }[] = [];

  beforeEach(async () => {
    kafka = await startKafkaMock();
    s3 = await startS3rver();
    started.push(kafka, s3);
    app = await appWith({ ...kafkaBusEnv(kafka), ...s3StorageEnv(s3), S3_BUCKET: 'readiness' });
  });
  afterEach(async () => {
    await app?.close();
    for (const thing of started.splice(0)) await thing.stop();
  });

  it('is ready while both answer, and answers 503 naming the event bus once the Kafka cluster is gone', async () => {
    // A loaded machine may answer a freshly started s3rver's first call after the check's 3 s: wait
    // for the ready state instead of demanding it on the first try.
    await eventually(async () =>
      expect(await readiness(app!)).toEqual({ status: 200, body: { status: 'ok', checks: { 'event-bus': 'up', 'object-storage': 'up' } } }),
    );
    await kafka.stop();
    const down = await readiness(app!);
    expect(down.status).toBe(503);
    expect(down.body.checks['object-storage']).toBe('up');
    expect(down.body.checks['event-bus']).toMatch(/^down: .*ECONNREFUSED/);
  });

  it('answers 503 naming object storage once the S3 endpoint is gone', async () => {
    await eventually(async () => expect((await readiness(app!)).status).toBe(200));
    await s3.stop();
    const down = await readiness(app!);
    expect(down.status).toBe(503);
    expect(down.body.checks['event-bus']).toBe('up');
    expect(down.body.checks['object-storage']).toMatch(/^down: .*ECONNREFUSED/);
  });
});
