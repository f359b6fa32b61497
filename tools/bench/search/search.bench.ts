/**
 * Workspace search benchmark (issue 5): seeds N record documents through the search index's own
 * bulk API, starts the product in embedded mode on that database, and drives GET /api/records/
 * through the gateway with autocannon at 1 and 16 connections. The peer, measured in the same
 * run, is the same query issued directly to PostgreSQL through the index adapter (no HTTP, no
 * Nest), so the difference is what the service layers cost.
 *
 * Usage: npm run bench:search -- [records=100000] [seconds=10]
 * Results are written to docs/benchmarks.md between the bench:search markers.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { JwtService } from '@nestjs/jwt';
import { Client } from 'pg';
import { PostgresSearchIndex, RecordDocument, SearchQuery } from '@dc/search-index';
import { ensureServerBuild, freePort, REPO_ROOT, startNode, TEST_POSTGRES_URL, waitForHttp } from '@dc/testing';

const records = Number(process.argv[2] ?? 100_000);
const seconds = Number(process.argv[3] ?? 10);
const DB = `dc_bench_search_${records}`;

const WORDS = ['temperature', 'rainfall', 'river', 'flow', 'census', 'population', 'income', 'hospital', 'admissions', 'traffic', 'collisions', 'school', 'enrolment', 'air', 'quality', 'ozone', 'energy', 'consumption', 'water', 'level', 'crime', 'housing', 'prices', 'transit', 'ridership', 'forest', 'fires', 'wildlife', 'sightings', 'budget', 'spending', 'vaccination', 'rates', 'soil', 'moisture', 'wind', 'speed', 'snow', 'depth'];
const pick = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(Math.random() * WORDS.length)]);

const viewer = { userId: randomUUID(), organisationId: randomUUID() };
const otherOrgs = Array.from({ length: 50 }, () => randomUUID());

function document(i: number): RecordDocument {
  // 10% of records are visible to the viewer (their organisation's or EV); 90% are other organisations' private ones.
  const visible = i % 10 === 0;
  const organisationId = visible && i % 20 === 0 ? viewer.organisationId : otherOrgs[i % otherOrgs.length];
  const changed = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
  return {
    id: randomUUID(),
    name: `${pick(3).join(' ')} ${i}`,
    description: `${pick(12).join(' ')}.`,
    headers: pick(6),
    words: pick(10),
    ownerId: organisationId === viewer.organisationId ? viewer.userId : randomUUID(),
    organisationId,
    visibility: visible && organisationId !== viewer.organisationId ? 'EV' : 'PR',
    sharedWithUserIds: [],
    sharedWithOrganisationIds: [],
    groupIds: [],
    createdAt: changed,
    changedAt: changed,
    card: { type: 'text/csv', size: 1024 + i, origin: 'upload', user: 'bench' },
  };
}

async function prepareDatabase(): Promise<string> {
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB])).rowCount === 1;
  if (!exists) await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${DB}`;
  return url.toString();
}

interface Measure {
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  errors: number;
}

async function viaGateway(url: string, token: string, connections: number): Promise<Measure> {
  const result = await autocannon({ url, connections, duration: seconds, headers: { authorization: `JWT ${token}` } });
  return { p50: result.latency.p50, p95: result.latency.p97_5, p99: result.latency.p99, rps: result.requests.average, errors: result.errors + result.non2xx };
}

/** The peer: the same query straight to PostgreSQL through the adapter, same concurrency and duration. */
async function direct(index: PostgresSearchIndex, query: SearchQuery, connections: number): Promise<Measure> {
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        await index.search(query);
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1));
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), rps: Math.round(latencies.length / seconds), errors: 0 };
}

async function main() {
  ensureServerBuild();
  const url = await prepareDatabase();
  const index = new PostgresSearchIndex({ connectionString: url, schema: 'search', max: 20 });
  await index.init();
  const present = await index.count();
  if (present !== records) {
    console.log(`seeding ${records} records (index holds ${present})...`);
    await index.clear();
    const started = Date.now();
    for (let i = 0; i < records; i += 5000) {
      await index.upsert(Array.from({ length: Math.min(5000, records - i) }, (_, k) => document(i + k)));
      if ((i / 5000) % 20 === 0) console.log(`  ${i + 5000} records, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
    const seed = new Client({ connectionString: url });
    await seed.connect();
    await seed.query('VACUUM ANALYZE search.records');
    // Kept so a later run on the same data measures the same viewer.
    await seed.query('CREATE TABLE IF NOT EXISTS public.bench_viewer (user_id text, organisation_id text)');
    await seed.query('TRUNCATE public.bench_viewer');
    await seed.query('INSERT INTO public.bench_viewer VALUES ($1, $2)', [viewer.userId, viewer.organisationId]);
    await seed.end();
    console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  const probe = new Client({ connectionString: url });
  await probe.connect();
  const stored = (await probe.query('SELECT user_id, organisation_id FROM public.bench_viewer')).rows[0];
  await probe.end();
  const me = { userId: stored.user_id as string, organisationId: stored.organisation_id as string };

  const jwtSecret = randomBytes(32).toString('hex');
  const port = await freePort();
  const app = startNode('gateway', 'dist/apps/gateway/src/main.js', {
    DATABASE_URL: url, PORT: String(port), JWT_SECRET: jwtSecret, ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: path.join(os.tmpdir(), DB), SERVE_WEB: 'false', LOG_LEVEL: 'warn',
  });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health/ready`, { process: app, timeoutMs: 120_000 });
    const token = await new JwtService({ secret: jwtSecret }).signAsync({ sub: me.userId, username: 'bench', org: me.organisationId, ct: 'STANDARD', perms: [], groups: [1, 2, 3], pv: 1 });
    const base = `http://127.0.0.1:${port}/api/records/`;
    const scenarios: Array<{ name: string; url: string; query: SearchQuery }> = [
      { name: 'ranked text query, page 1', url: `${base}?query=river%20flow`, query: { text: 'river flow', viewer: me, view: 'all', page: 1, pageSize: 20 } },
      { name: 'typo query, page 1', url: `${base}?query=temperture`, query: { text: 'temperture', viewer: me, view: 'all', page: 1, pageSize: 20 } },
      { name: 'empty query (newest first)', url: base, query: { viewer: me, view: 'all', page: 1, pageSize: 20 } },
      { name: 'empty query, deep page 50', url: `${base}?page=50`, query: { viewer: me, view: 'all', page: 50, pageSize: 20 } },
      { name: 'own records', url: `${base}?view=own`, query: { viewer: me, view: 'own', page: 1, pageSize: 20 } },
    ];
    const rows: string[] = [];
    for (const scenario of scenarios) {
      for (const connections of [1, 16]) {
        const http = await viaGateway(scenario.url, token, connections);
        const peer = await direct(index, scenario.query, connections);
        const line = `| ${scenario.name} | ${connections} | ${http.p50} / ${http.p95} / ${http.p99} | ${Math.round(http.rps)} | ${http.errors} | ${peer.p50} / ${peer.p95} / ${peer.p99} | ${peer.rps} |`;
        console.log(line);
        rows.push(line);
      }
    }
    writeResults(rows);
  } finally {
    await app.stop();
    await index.close();
  }
}

function writeResults(rows: string[]) {
  const file = path.join(REPO_ROOT, 'docs/benchmarks.md');
  const start = '<!-- bench:search:start -->';
  const end = '<!-- bench:search:end -->';
  const section = [
    start,
    `## Search: GET /api/records/ at ${records.toLocaleString('en')} records`,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), embedded mode on the local PostgreSQL ${''}server, ${seconds} s per cell, with \`npm run bench:search -- ${records} ${seconds}\`.`,
    'The viewer sees 10% of the records (their organisation\'s and everyone\'s); 20 results a page. Latencies in ms (p50 / p97.5 / p99 for HTTP, as autocannon reports; p50 / p95 / p99 for the peer).',
    'The peer is the same query sent straight to PostgreSQL through the index adapter in the same run: no HTTP, no gateway, no Nest.',
    '',
    '| query | connections | gateway latency ms | gateway req/s | errors | peer latency ms | peer req/s |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    end,
  ].join('\n');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const next = current.includes(start) ? current.replace(new RegExp(`${start}[\\s\\S]*${end}`), section) : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  console.log(`written to ${path.relative(REPO_ROOT, file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
