import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { eventually, RunningProcess, type ServiceLauncher, TestDatabase, TestS3Server } from '@dc/testing';
import { DistributedProduct, SERVICES, ServiceName, startDistributedProduct } from './distributed-product';
import { activateAndLogin, createPublicRecord, register } from './flows';
import { requestAndDownload } from './sharing-flow';

/**
 * The distributed mode's tests, for each way of starting its services: seven processes
 * (distributed.e2e-spec.ts) or seven containers of the product's image (containers.e2e-spec.ts).
 */
export function distributedModeTests(launch: ServiceLauncher, moreTests?: (product: () => DistributedProduct) => void): void {
  let product: DistributedProduct;
  let db: TestDatabase;
  let s3: TestS3Server;
  let processes: RunningProcess[];
  let gatewayUrl: string;
  let ports: Record<ServiceName, number>;

  beforeAll(async () => {
    product = await startDistributedProduct('dc_distributed', {}, launch);
    ({ db, s3, processes, gatewayUrl, ports } = product);
  }, 180_000);

  afterAll(() => product?.stop(), 60_000);

  it('runs every service as its own process with its own schema', async () => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const schemas = (
        await client.query('SELECT schema_name FROM information_schema.schemata WHERE schema_name = ANY($1) ORDER BY 1', [[...SERVICES]])
      ).rows.map((r) => r.schema_name);
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
      body: JSON.stringify({
        username: 'grace',
        email: 'grace@example.org',
        first_name: 'Grace',
        last_name: 'Hopper',
        description: 'Compilers',
        password: 'nanoseconds-11.8',
        password_confirm: 'nanoseconds-11.8',
      }),
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
    await eventually(
      async () => expect(search.lines.some((l) => l.includes('"correlationId":"corr-distributed-1"') && l.includes('event applied'))).toBe(true),
      10_000,
    );
  }, 90_000);

  it('carries a record from the catalogue process to the search process over Kafka', async () => {
    await register(gatewayUrl, 'ada', 'correct horse battery');
    const token = await eventually(() => activateAndLogin(gatewayUrl, product.mailDir, 'ada', 'correct horse battery'), 20_000);
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
    const token = await eventually(() => activateAndLogin(gatewayUrl, product.mailDir, 'lin', 'rain gauge network'), 20_000);
    const auth = { authorization: `JWT ${token}` };
    const csv = Buffer.from(['station,rainfall_mm', ...Array.from({ length: 5000 }, (_, i) => `gauge-${i},${(i * 37) % 211}`)].join('\n'));
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'rainfall.csv');

    const created = await fetch(`${gatewayUrl}/api/records/`, { method: 'POST', headers: auth, body: form });
    expect(created.status).toBe(201);
    const record = await created.json();
    expect(record.FILES).toEqual([
      expect.objectContaining({ name: 'rainfall.csv', size: csv.length, checksum: createHash('sha256').update(csv).digest('hex') }),
    ]);

    // The catalogue process wrote the object into the bucket, under its file's key.
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: 'data-catalogue', Key: `catalogue/files/${record.FILES[0].id}` }));
      expect(Buffer.from(await object.Body!.transformToByteArray()).equals(csv)).toBe(true);
    } finally {
      client.destroy();
    }

    // The record's download_url answers a signed link through the gateway (never a presigned S3 URL,
    // which could not be withdrawn): the catalogue checks the holder's access again and streams from S3.
    const link = await fetch(`${gatewayUrl}${record.download_url}`, { headers: auth });
    expect(link.status).toBe(200);
    const { url, file } = await link.json();
    expect(file).toEqual({ id: record.FILES[0].id, name: 'rainfall.csv' });
    expect(url.startsWith(`${gatewayUrl}/api/files/download?token=`)).toBe(true);
    const downloaded = await fetch(url);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-disposition')).toContain('rainfall.csv');
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(csv)).toBe(true);
    // A changed token is refused; once the record is deleted, the link that worked is refused too.
    expect((await fetch(`${url}x`)).status).toBe(403);
    expect((await fetch(`${gatewayUrl}/api/records/${record.id}/`, { method: 'DELETE', headers: auth })).status).toBe(204);
    expect((await fetch(url)).status).toBe(404);
  }, 90_000);

  it('routes the record list to the search service', async () => {
    const response = await fetch(`${gatewayUrl}/api/recordsannon/`, { headers: { 'x-correlation-id': 'corr-list-1' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ next: null, previous: null });
    const search = processes.find((p) => p.name === 'search')!;
    await eventually(
      async () => expect(search.lines.some((l) => l.includes('"correlationId":"corr-list-1"') && l.includes('/api/recordsannon/'))).toBe(true),
      10_000,
    );
  });

  it("merges the services' OpenAPI documents at the gateway", async () => {
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

  it('extracts an upload, and a request the owner approves lets the requester download it', async () => {
    await requestAndDownload(product);
  }, 180_000);
  moreTests?.(() => product);
}
