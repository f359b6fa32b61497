import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import {
  createTestDatabase, describeInfra, ensureServerBuild, eventually, freePort, isKcatInstalled, RunningProcess,
  startKafkaMock, startNode, startS3rver, TestDatabase, TestS3Server, waitForHttp,
} from '@dc/testing';
import { activateAndLogin, createPublicRecord, register } from './flows';

const SERVICES = ['identity', 'catalogue', 'search', 'requests', 'relations', 'jobs'] as const;

/**
 * The distributed mode on this machine: the gateway and six services as separate processes,
 * Kafka protocol through librdkafka's mock cluster, S3 through s3rver, and real PostgreSQL.
 */
describeInfra('distributed mode (seven processes, Kafka, S3, PostgreSQL)', isKcatInstalled() || 'kcat is not installed (apt-get install kcat)', () => {
  let db: TestDatabase;
  let kafka: { bootstrapServers: string; stop(): Promise<void> };
  let s3: TestS3Server;
  const processes: RunningProcess[] = [];
  let gatewayUrl: string;
  let ports: Record<string, number>;

  beforeAll(async () => {
    ensureServerBuild();
    [db, kafka, s3] = await Promise.all([createTestDatabase('dc_distributed'), startKafkaMock(), startS3rver()]);
    ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)));
    const gatewayPort = await freePort();
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const common = {
      RUN_MODE: 'distributed',
      PUBLIC_URL: gatewayUrl,
      DATABASE_URL: db.url,
      BUS_DRIVER: 'kafka',
      KAFKA_BROKERS: kafka.bootstrapServers,
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DATA_DIR: `/tmp/${db.name}`,
      LOG_LEVEL: 'info',
    };
    for (const service of SERVICES) {
      processes.push(startNode(service, `dist/apps/${service}/src/main.js`, { ...common, PORT: String(ports[service]) }));
    }
    const serviceUrls = Object.fromEntries(SERVICES.map((s) => [`SERVICE_URLS_${s.toUpperCase()}`, `http://127.0.0.1:${ports[s]}`]));
    processes.push(startNode('gateway', 'dist/apps/gateway/src/main.js', { ...common, ...serviceUrls, PORT: String(gatewayPort) }));
    await Promise.all(
      processes.map((p) => waitForHttp(`http://127.0.0.1:${p.name === 'gateway' ? gatewayPort : ports[p.name]}/health/ready`, { process: p, timeoutMs: 90_000 })),
    );
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await Promise.all([kafka?.stop(), s3?.stop()]);
    await db?.drop();
  }, 60_000);

  it('runs every service as its own process with its own schema', async () => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const schemas = (await client.query("SELECT schema_name FROM information_schema.schemata WHERE schema_name = ANY($1) ORDER BY 1", [[...SERVICES]])).rows.map((r) => r.schema_name);
      expect(schemas).toEqual([...SERVICES].sort());
    } finally {
      await client.end();
    }
    expect(new Set(processes.map((p) => p.process.pid)).size).toBe(7);
  });

  it('routes an HTTP call through the gateway to its service, and the event over Kafka to another service', async () => {
    const response = await fetch(`${gatewayUrl}/api/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-correlation-id': 'corr-distributed-1' },
      body: JSON.stringify({ username: 'grace', email: 'grace@example.org', first_name: 'Grace', last_name: 'Hopper', description: 'Compilers', password: 'nanoseconds-11.8', password_confirm: 'nanoseconds-11.8' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-correlation-id')).toBe('corr-distributed-1');

    const identity = processes.find((p) => p.name === 'identity')!;
    const search = processes.find((p) => p.name === 'search')!;
    // The call reached the identity process (its log line carries the gateway's correlation id) ...
    await eventually(async () => expect(identity.lines.some((l) => l.includes('"correlationId":"corr-distributed-1"'))).toBe(true), 10_000);

    // ... and the search process consumed identity's event from Kafka into its own projection.
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const rows = await eventually(async () => {
        const result = (await client.query('SELECT name FROM search.organisations')).rows;
        expect(result).toHaveLength(1);
        return result;
      }, 60_000);
      expect(rows[0].name).toBe('Grace Hopper');
      const published = (await client.query('SELECT count(*)::int AS n FROM identity.outbox_events WHERE published_at IS NOT NULL')).rows[0].n;
      expect(published).toBe(2);
    } finally {
      await client.end();
    }
    // The search process applied the event under the correlation id of the original call.
    await eventually(async () => expect(search.lines.some((l) => l.includes('"correlationId":"corr-distributed-1"') && l.includes('event applied'))).toBe(true), 10_000);
  }, 90_000);

  it('carries a record from the catalogue process to the search process over Kafka', async () => {
    await register(gatewayUrl, 'ada', 'correct horse battery');
    const token = await eventually(() => activateAndLogin(gatewayUrl, path.join(`/tmp/${db.name}`, 'mail'), 'ada', 'correct horse battery'), 20_000);
    const record = await createPublicRecord(gatewayUrl, token, 'Rainfall by river basin');
    const page = await eventually(async () => {
      const result = await (await fetch(`${gatewayUrl}/api/recordsannon/?query=rainfall`)).json();
      expect(result.count).toBe(1);
      return result;
    }, 60_000);
    expect(page.results[0]).toMatchObject({ id: record.id, name: 'Rainfall by river basin', user: 'ada', visibility: 'EV' });
  }, 90_000);

  it('streams an upload through the gateway into S3 (s3rver), and serves it back through the signed download link', async () => {
    await register(gatewayUrl, 'lin', 'rain gauge network');
    const token = await eventually(() => activateAndLogin(gatewayUrl, path.join(`/tmp/${db.name}`, 'mail'), 'lin', 'rain gauge network'), 20_000);
    const auth = { authorization: `JWT ${token}` };
    const csv = Buffer.from(['station,rainfall_mm', ...Array.from({ length: 5000 }, (_, i) => `gauge-${i},${(i * 37) % 211}`)].join('\n'));
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'rainfall.csv');

    const created = await fetch(`${gatewayUrl}/api/records/`, { method: 'POST', headers: auth, body: form });
    expect(created.status).toBe(201);
    const record = await created.json();
    expect(record.FILES).toEqual([expect.objectContaining({ name: 'rainfall.csv', size: csv.length, checksum: createHash('sha256').update(csv).digest('hex') })]);

    // The catalogue process wrote the object into the bucket, under its file's key.
    const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: 'data-catalogue', Key: `catalogue/files/${record.FILES[0].id}` }));
      expect(Buffer.from(await object.Body!.transformToByteArray()).equals(csv)).toBe(true);
    } finally {
      client.destroy();
    }

    // The record's download_url answers a presigned S3 link, which serves the bytes to anyone holding it.
    const link = await fetch(`${gatewayUrl}${record.download_url}`, { headers: auth });
    expect(link.status).toBe(200);
    const { url, file } = await link.json();
    expect(file).toEqual({ id: record.FILES[0].id, name: 'rainfall.csv' });
    expect(url.startsWith(`${s3.endpoint}/data-catalogue/catalogue/files/${record.FILES[0].id}?`)).toBe(true);
    const downloaded = await fetch(url);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-disposition')).toContain('rainfall.csv');
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(csv)).toBe(true);
    // Without the signature, s3rver (like S3) refuses.
    expect((await fetch(url.split('?')[0])).status).toBe(403);
  }, 90_000);

  it('routes the record list to the search service', async () => {
    const response = await fetch(`${gatewayUrl}/api/recordsannon/`, { headers: { 'x-correlation-id': 'corr-list-1' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ next: null, previous: null });
    const search = processes.find((p) => p.name === 'search')!;
    await eventually(async () => expect(search.lines.some((l) => l.includes('"correlationId":"corr-list-1"') && l.includes('/api/recordsannon/'))).toBe(true), 10_000);
  });

  it('merges the services\' OpenAPI documents at the gateway', async () => {
    const document = await (await fetch(`${gatewayUrl}/api/docs/openapi.json`)).json();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/register', '/api/recordsannon']));
  });

  it('answers unknown API paths at the gateway and reports every service healthy', async () => {
    const missing = await fetch(`${gatewayUrl}/api/nowhere/`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not found.' });
    expect((await fetch(`${gatewayUrl}/health/live`)).status).toBe(200);
    for (const service of SERVICES) {
      const ready = await (await fetch(`http://127.0.0.1:${ports[service]}/health/ready`)).json();
      expect(ready).toEqual({ status: 'ok', checks: expect.objectContaining({ 'event-bus': 'up', 'object-storage': 'up', [`${service}-database`]: 'up' }) });
    }
  });
});
