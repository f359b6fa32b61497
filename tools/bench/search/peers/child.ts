/**
 * One engine of the peer benchmark in its own process (peers.bench.ts starts it), so its memory
 * figures hold nothing of the others'. Phase `build`: generates the records, builds the engine
 * from them in memory and persists it. Phase `serve`: restores the engine from what `build`
 * persisted (the restart), then measures every query class at 1 and 16 callers.
 * Usage: node --expose-gc tools/scripts/run-ts.cjs tools/bench/search/peers/child.ts <engine> <build|serve> <records> <seconds> <dir> <out.json>
 */
import { writeFileSync } from 'node:fs';
import type { SearchQuery } from '@dc/search-index';
import { quantile } from '../../profiling-api/latency';
import { syntheticCatalogue } from '../synthetic-records';
import { BENCH_VIEWER, mayView, type PeerEngine, type PeerPage } from './engine';
import { MiniSearchEngine } from './minisearch';
import { OursEngine } from './ours';
import { PEER_SCENARIOS } from './scenarios';
import { SqliteFts5Engine } from './sqlite-fts5';

export const ENGINES = ['ours', 'sqlite-fts5', 'sqlite-fts5-tiers', 'minisearch'] as const;
export type EngineName = (typeof ENGINES)[number];
export const CONNECTIONS = [1, 16];

export function engineOf(name: EngineName, dir: string): PeerEngine {
  if (name === 'ours') return new OursEngine();
  if (name === 'sqlite-fts5') return SqliteFts5Engine.in(dir);
  if (name === 'sqlite-fts5-tiers') return SqliteFts5Engine.in(dir, 'tiers');
  return new MiniSearchEngine();
}

export interface Measure {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
}

export interface BuildReport {
  buildSeconds: number;
  persistSeconds: number;
  indexBytes: number;
  documentsBytes: number;
  /** Above the level with the records generated (held by reference by ours and MiniSearch, so not counted). */
  heapBytes: number;
  rssBytes: number;
}

export interface ServeReport {
  restartSeconds: number;
  /** Of restartSeconds, reading the documents file (ours and MiniSearch keep documents in the heap). */
  documentsSeconds: number;
  /** Above the level of the process before the restore: what the restarted engine holds (documents included). */
  heapBytes: number;
  rssBytes: number;
  scenarios: Array<{ count: string; ids: string[]; measures: Measure[] }>;
}

const gc = (globalThis as { gc?: () => void }).gc;
function memory(): { heap: number; rss: number } {
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss };
}

/** Nearest-rank percentiles (ms). */
function summarise(latencies: number[], elapsedSeconds: number): Measure {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => Number(quantile(sorted, q).toFixed(2));
  return { requests: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), rps: Math.round(sorted.length / elapsedSeconds) };
}

/**
 * `callers` async callers, each sending its next query as soon as its last is answered, for `seconds`.
 * The engines answer synchronously, one at a time: a query's latency runs from when its caller
 * sent it (its previous answer) to its answer, so at 16 it includes waiting behind the others.
 */
async function measure(engine: PeerEngine, query: SearchQuery, callers: number, seconds: number): Promise<Measure> {
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      let sent = performance.now();
      while (sent < end) {
        // Every caller's turn comes round (a microtask, so one caller pays no event-loop turn): the others answered meanwhile are what this one waits for.
        await Promise.resolve();
        engine.search(query);
        const answered = performance.now();
        latencies.push(answered - sent);
        sent = answered;
      }
    }),
  );
  return summarise(latencies, (performance.now() - started) / 1000);
}

function assertVisible(engine: PeerEngine, query: SearchQuery, page: PeerPage, scenario: string) {
  const leaked = page.hits.filter((hit) => !mayView(hit, query));
  if (leaked.length > 0)
    throw new Error(`${engine.name} LEAKS: ${scenario}: ${leaked.length} of ${page.hits.length} results not visible to the viewer, e.g. ${leaked[0].id}`);
}

/** The scenario's query as a client following `next` links sends it: with the last result of the page before as the cursor. */
function resolved(engine: PeerEngine, query: SearchQuery, scenario: string): SearchQuery {
  if (query.page === 1) return query;
  const before = engine.search({ ...query, page: query.page - 1 });
  assertVisible(engine, query, before, scenario);
  const last = before.hits.at(-1);
  if (!last) throw new Error(`${engine.name}: ${scenario}: page ${query.page - 1} is empty`);
  return { ...query, after: { score: last.score ?? null, changedAt: last.changedAt, id: last.id } };
}

async function main() {
  const [name, phase, recordsArg, secondsArg, dir, out] = process.argv.slice(2);
  const records = Number(recordsArg);
  const seconds = Number(secondsArg);
  if (!ENGINES.includes(name as EngineName) || !['build', 'serve'].includes(phase) || !(records > 0) || !(seconds > 0) || !dir || !out)
    throw new Error('usage: child.ts <engine> <build|serve> <records> <seconds> <dir> <out.json>');
  const engine = engineOf(name as EngineName, dir);
  if (phase === 'build') {
    const catalogue = syntheticCatalogue(BENCH_VIEWER);
    const docs = Array.from({ length: records }, (_, i) => catalogue.record(i));
    const before = memory();
    const started = performance.now();
    engine.build(docs);
    const buildSeconds = (performance.now() - started) / 1000;
    const after = memory();
    const persisting = performance.now();
    const persisted = engine.persist(dir);
    const report: BuildReport = {
      buildSeconds,
      persistSeconds: (performance.now() - persisting) / 1000,
      ...persisted,
      heapBytes: after.heap - before.heap,
      rssBytes: after.rss - before.rss,
    };
    writeFileSync(out, JSON.stringify(report));
    return;
  }
  const before = memory();
  const started = performance.now();
  const documentsSeconds = engine.restore(dir);
  const first = engine.search(PEER_SCENARIOS[0].query);
  const restartSeconds = (performance.now() - started) / 1000;
  if (first.hits.length === 0) throw new Error(`${engine.name}: no results after the restart`);
  const after = memory();
  const scenarios: ServeReport['scenarios'] = [];
  for (const scenario of PEER_SCENARIOS) {
    const query = resolved(engine, scenario.query, scenario.name);
    const page = engine.search(query);
    assertVisible(engine, query, page, scenario.name);
    if (page.hits.length === 0) throw new Error(`${engine.name}: ${scenario.name}: no results`);
    const measures: Measure[] = [];
    for (const callers of CONNECTIONS) {
      measures.push(await measure(engine, query, callers, seconds));
      const m = measures.at(-1)!;
      console.log(`  ${engine.name}: ${scenario.name}, ${callers}: p50 / p95 / p99 ${m.p50} / ${m.p95} / ${m.p99} ms, ${m.rps}/s`);
    }
    scenarios.push({ count: `${page.count}${page.countCapped ? '+' : ''}`, ids: page.hits.map((hit) => hit.id), measures });
  }
  engine.close();
  const report: ServeReport = { restartSeconds, documentsSeconds, heapBytes: after.heap - before.heap, rssBytes: after.rss - before.rss, scenarios };
  writeFileSync(out, JSON.stringify(report));
}

if (process.argv[1] === __filename)
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
