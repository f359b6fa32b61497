// Benchmark of private indexing's keyed hashing: 300,000 cells hashed in Chromium by the web app's own
// hasher (apps/web/src/sources/linkage-key.ts keyedHasher, compiled as it is), beside WebCrypto in the
// same page, and beside Node hashing the same cells (libs/extraction keyedHash, node:crypto) in the
// same run. Every browser hash is checked against Node's.
// Run: node_modules/.bin/node tools/bench/hashing/run.cjs [--cells=300000] [--runs=5] [--no-write]
import { transformSync } from '@swc/core';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { keyedHash } from '@dc/extraction';
import { launchChromium } from '@dc/testing';
import { keyedHasher } from '../../../apps/web/src/sources/linkage-key';
import { sectionMarkers, seededRandom, writeBenchmarkSection } from '../bench-support';

const ROOT = path.resolve(__dirname, '../../..');
const SECTION = 'bench:hashing';
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const CELLS = Number(arg('cells') ?? 300_000);
const RUNS = Number(arg('runs') ?? 5);
const KEY = new Uint8Array(32).map((_, i) => (i * 37 + 11) & 0xff);

/** Cells like a private column's: identifiers, e-mail addresses, names and numbers (seeded). */
function cells(count: number): string[] {
  const random = seededRandom(20_261_124);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = (n: number) => Array.from({ length: n }, () => letters[Math.floor(random() * 26)]).join('');
  return Array.from({ length: count }, (_, i) => {
    switch (i % 4) {
      case 0:
        return `${word(6)}.${word(8)}@example.org`;
      case 1:
        return word(3).toUpperCase();
      case 2:
        return `${word(1).toUpperCase()}${word(7)} ${word(1).toUpperCase()}${word(9)}`;
      default:
        return String(Math.floor(random() * 1e9));
    }
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The web app's hasher modules as the browser runs them: TypeScript compiled to ES modules, relative imports made absolute. */
function webModule(file: string): string {
  const source = readFileSync(path.join(ROOT, 'apps/web/src/sources', file), 'utf8');
  const { code } = transformSync(source, {
    filename: file,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'es6' },
    swcrc: false,
  });
  return code.replace(/from ['"]\.\/([a-z0-9-]+)['"]/g, "from '/$1.js'");
}

async function inChromium(values: string[]): Promise<{ web: number[]; webCrypto: number[]; hashes: string[]; version: string }> {
  const modules: Record<string, string> = { '/linkage-key.js': webModule('linkage-key.ts'), '/hmac-sha256.js': webModule('hmac-sha256.ts') };
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>hashing</title>');
    if (modules[url]) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(modules[url]);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    // Written as text: the runner compiles this file to CommonJS, which would rewrite import().
    const script = `(async ({ values, key, runs }) => {
      const { keyedHasher } = await import('/linkage-key.js');
      const bytes = new Uint8Array(key);
      const web = [];
      let hashes = [];
      for (let run = 0; run < runs; run++) {
        const start = performance.now();
        const hash = keyedHasher(bytes);
        const out = new Array(values.length);
        for (let i = 0; i < values.length; i++) out[i] = hash(values[i]);
        web.push(performance.now() - start);
        hashes = out;
      }
      // The browser's native HMAC, one sign() per cell in batches: the peer in the same page.
      const cryptoKey = await crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      const encoder = new TextEncoder();
      const webCrypto = [];
      for (let run = 0; run < Math.min(runs, 3); run++) {
        const start = performance.now();
        for (let i = 0; i < values.length; i += 10000) {
          await Promise.all(values.slice(i, i + 10000).map((v) => crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(v))));
        }
        webCrypto.push(performance.now() - start);
      }
      return { web, webCrypto, hashes, version: navigator.userAgent };
    })(${JSON.stringify({ values, key: [...KEY], runs: RUNS })})`;
    return (await page.evaluate(script)) as { web: number[]; webCrypto: number[]; hashes: string[]; version: string };
  } finally {
    await browser.close();
    server.close();
  }
}

function timed(values: string[], hasher: () => (text: string) => string): { times: number[]; hashes: string[] } {
  const times: number[] = [];
  let hashes: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const hash = hasher();
    const out = new Array<string>(values.length);
    for (let i = 0; i < values.length; i++) out[i] = hash(values[i]);
    times.push(performance.now() - start);
    hashes = out;
  }
  return { times, hashes };
}

function inNode(values: string[]): { node: number[]; webInNode: number[]; hashes: string[] } {
  const node = timed(values, () => (text) => keyedHash(KEY, text));
  const web = timed(values, () => keyedHasher(KEY));
  if (web.hashes.some((h, i) => h !== node.hashes[i])) throw new Error("the web app's hasher differs from keyedHash in Node");
  return { node: node.times, webInNode: web.times, hashes: node.hashes };
}

async function main(): Promise<void> {
  const values = cells(CELLS);
  const node = inNode(values);
  const browser = await inChromium(values);
  const mismatches = browser.hashes.filter((h, i) => h !== node.hashes[i]).length;
  if (mismatches) throw new Error(`${mismatches} browser hashes differ from Node's`);
  const ms = (x: number) => `${Math.round(x)} ms`;
  const rate = (x: number) => `${Math.round(CELLS / (x / 1000)).toLocaleString('en')} cells/s`;
  const rows = [
    ["Chromium, the web app's hasher (HMAC-SHA-256 keyed once, no allocation per cell)", browser.web],
    ['Chromium, WebCrypto HMAC-SHA-256 (one sign() per cell, 10,000 at a time)', browser.webCrypto],
    ['Node, libs/extraction keyedHash (node:crypto createHmac per cell)', node.node],
    ["Node, the web app's hasher (same code as in Chromium)", node.webInNode],
  ] as const;
  const { start, end } = sectionMarkers(SECTION);
  const text = [
    start,
    '## Private indexing: keyed hashing of 300,000 cells in Chromium, beside Node',
    '',
    `Run on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()[0].toFixed(2)} (the machine is shared), ${browser.version.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}.`,
    `${CELLS.toLocaleString('en')} cells (e-mail addresses, 3-letter codes, names, numbers; seeded), HMAC-SHA-256 under one linkage key, 32 hex characters per hash; ${RUNS} runs, median.`,
    `Every browser hash equals Node's (${CELLS.toLocaleString('en')} of ${CELLS.toLocaleString('en')}). Target: under 2 s in Chromium: ${median(browser.web) < 2000 ? 'met' : 'missed'} at the median (${ms(median(browser.web))}), best run ${ms(Math.min(...browser.web))}.`,
    "Wall-clock times on this shared machine move with the other jobs' load (see the load average); the rows, measured in the same run, compare with each other.",
    '',
    '| hasher | median | best | rate (median) |',
    '| --- | ---: | ---: | ---: |',
    ...rows.map(([name, times]) => `| ${name} | ${ms(median(times))} | ${ms(Math.min(...times))} | ${rate(median(times))} |`),
    '',
    "Private indexing runs the first hasher in a Web Worker (papaparse in 1 MiB chunks), so the page stays responsive while a large file is hashed. WebCrypto is the browser's native code, but each call is an asynchronous round trip, which costs more than the hashing of a short cell.",
    '',
    `Reproduce: \`node_modules/.bin/node tools/bench/hashing/run.cjs --cells=${CELLS} --runs=${RUNS}\`.`,
    end,
  ].join('\n');
  console.log(text);
  if (!process.argv.includes('--no-write')) writeBenchmarkSection(SECTION, text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
