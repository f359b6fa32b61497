// Upload to statistics through the API (issue 26): the built product in embedded mode on real
// PostgreSQL takes a generated CSV as a user's upload (POST /api/records/, extractOption metadata),
// and the time from the upload's answer to the record's complete META (GET /api/records/{id}/, polled)
// is set beside DuckDB's SUMMARIZE of the same file on one thread and the extraction library's call
// alone as the product makes it (threads from 32 MiB, column sketches), each in a child process of its
// own, in turns, in the same run. A second product beside it reads each file back after its upload
// (EXTRACT_WHILE_UPLOADING=false), as the product did before it described large CSVs as they arrive: its
// upload is not paced by extraction, so the time from the upload's start to META is the fair comparison.
// The product's log line 'metadata extracted' says where its time went:
// waiting in the queue, extracting (storage read included) and storing META with its events. After
// META the relations service reads the file again for its row-hash index, in the background: each
// measurement waits until the product is quiet, so that work neither slows the peers nor the next upload.
import { once } from 'node:events';
import { createReadStream, openAsBlob, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createTestDatabase, startEmbeddedProduct, type EmbeddedProduct } from '@dc/testing';
import { signIn } from '../bench-account';
import { sectionMarkers } from '../bench-support';
import { generatedCsv } from '../generated-csv';
import { cpuMsOf } from '../process-probe';
import type { Measurement, Mode } from './csv-child';

export const UPLOAD_SECTION = 'bench:extraction-upload';
const PASSWORD = 'upload bench 42';
/**
 * The record is read as soon as the product logs that it stored META ('metadata extracted', looked
 * for every LOG_CHECK_MS), and every FALLBACK_POLL_MS whatever the log says. A read costs the product
 * about 5 ms of CPU: polling every 10 ms took half a core from the extraction it was timing.
 */
const LOG_CHECK_MS = 5;
const FALLBACK_POLL_MS = 250;
/** Files from this size on are profiled in the catalogue's extraction thread (EXTRACTION_THREAD_MIN_BYTES' default). */
const THREAD_MIN_BYTES = 8 * 1024 * 1024;
/** The product is quiet when it used less than this share of one core over QUIET_WINDOW_MS. */
const QUIET_SHARE = 0.05;
const QUIET_WINDOW_MS = 500;
/** Longer than the row-hash index of a 1 GB file takes here (136 s): a product busy for longer is a fault to report. */
const QUIET_WITHIN_MS = 15 * 60_000;

interface ProductTimings {
  queuedMs: number;
  extractMs: number;
  storeMs: number;
}

interface UploadMeasurement {
  /** From sending the upload to its answer. */
  uploadMs: number;
  /** From the upload's answer to the first read that showed the file's complete META. */
  statsMs: number;
  /** Product CPU (all its threads) from the upload's answer to that read. */
  cpuMs: number;
  /** Product CPU from sending the upload to that read. */
  cpuTotalMs: number;
  rows: number;
  timings: ProductTimings;
  /** The row-hash index of the file, built after META in the background (its log line 'row index built'). */
  rowIndexMs: number;
  /** Reads of the record until it showed META. */
  polls: number;
}

interface SizeResult {
  sizeMb: number;
  bytes: number;
  uploads: UploadMeasurement[];
  /** The same uploads to the product that reads each file back after its upload. */
  readBack: UploadMeasurement[];
  summarize: Measurement[];
  library: Measurement[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const seconds = (ms: number) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`);

const NO_TIMINGS: ProductTimings = { queuedMs: NaN, extractMs: NaN, storeMs: NaN };

/** Whether a line of the product's log has this message about this file or record. */
const isLogLine = (text: string, message: string, id: string): boolean => text.includes(`"${message}"`) && text.includes(id);

/** The JSON of the product's log line with this message about this file, once it is written (null after `waitMs`). */
async function logLine(product: EmbeddedProduct, message: string, fileId: string, waitMs: number): Promise<Record<string, unknown> | null> {
  const deadline = performance.now() + waitMs;
  do {
    const line = product.app.lines.find((text) => isLogLine(text, message, fileId));
    if (line) return JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
    await sleep(10);
  } while (performance.now() < deadline);
  return null;
}

/** The product's own account of one file: its log line 'metadata extracted' (NaN from a product before it logged them). */
async function productTimings(product: EmbeddedProduct, fileId: string): Promise<ProductTimings> {
  return { ...NO_TIMINGS, ...((await logLine(product, 'metadata extracted', fileId, 1000)) as Partial<ProductTimings> | null) };
}

/** Waits until each product uses less than QUIET_SHARE of a core over a window (its background work done). */
async function quiet(pids: number[]): Promise<void> {
  const deadline = performance.now() + QUIET_WITHIN_MS;
  const used = () => pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0);
  for (let before = used(); performance.now() < deadline;) {
    await sleep(QUIET_WINDOW_MS);
    const now = used();
    if (now - before < QUIET_SHARE * QUIET_WINDOW_MS) return;
    before = now;
  }
  throw new Error(`the product did not become quiet within ${QUIET_WITHIN_MS / 60_000} min (under ${QUIET_SHARE * 100} % of a core for ${QUIET_WINDOW_MS} ms)`);
}

/** A product the benchmark uploads to, signed in. */
interface BenchProduct {
  product: EmbeddedProduct;
  token: string;
  stop: () => Promise<void>;
}

/**
 * POST /api/records/ with the file sent at most `bytesPerSecond`, as a client on a network of that
 * speed would (with its Content-Length, as browsers send a form); answers the status and body.
 */
async function postPaced(url: string, token: string, csv: string, fields: Record<string, string>, bytesPerSecond: number): Promise<Response> {
  const boundary = `upload-bench-${Date.now()}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(csv)}"\r\nContent-Type: text/csv\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + statSync(csv).size + Buffer.byteLength(tail);
  const headers = { authorization: `JWT ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) };
  return new Promise<Response>((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: response.statusCode })));
      response.on('error', reject);
    });
    request.on('error', reject);
    void (async () => {
      request.write(head);
      const started = performance.now();
      let sent = 0;
      for await (const chunk of createReadStream(csv, { highWaterMark: 256 * 1024 })) {
        if (!request.write(chunk)) await once(request, 'drain');
        sent += (chunk as Buffer).length;
        const ahead = started + (sent / bytesPerSecond) * 1000 - performance.now();
        if (ahead > 0) await sleep(ahead);
      }
      request.end(tail);
    })().catch(reject);
  });
}

async function uploadOnce({ product, token }: BenchProduct, csv: string, quietPids: number[], rateMBps?: number): Promise<UploadMeasurement> {
  const { base, pid } = product;
  const fields = { name: `Upload ${path.basename(csv)}`, access: 'OP', extractOption: 'metadata', allowDuplicate: 'true' };
  // Unpaced, fetch sends the form as fast as it can; paced, postPaced writes its own body.
  let form: FormData | null = null;
  if (!rateMBps) {
    form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.set('file', await openAsBlob(csv, { type: 'text/csv' }), path.basename(csv));
  }
  // The row index of the previous upload, or a peer's child, must not share the machine with this upload.
  await quiet(quietPids);
  const started = performance.now();
  const cpuAtStart = cpuMsOf(pid);
  const sent = form
    ? fetch(`${base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${token}` }, body: form })
    : postPaced(`${base}/api/records/`, token, csv, fields, (rateMBps as number) * 1e6);
  const uploaded = await sent.catch((error: Error) => {
    const { exitCode, signalCode } = product.app.process;
    const state = exitCode === null && signalCode === null ? 'running' : `exited: ${exitCode ?? signalCode}`;
    throw new Error(
      `upload of ${path.basename(csv)} failed (${error.message}); the product (${state}) last wrote:\n${product.app.lines.slice(-20).join('\n')}`,
      {
        cause: error,
      },
    );
  });
  const answeredAt = performance.now();
  const cpuAtAnswer = cpuMsOf(pid);
  if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
  const { id } = (await uploaded.json()) as { id: string };
  const deadline = answeredAt + 30 * 60_000;
  let checkedLines = 0;
  /** Whether the product has logged META stored for this record since the last look. */
  const logged = (): boolean => {
    const lines = product.app.lines;
    const found = lines.slice(checkedLines).some((line) => isLogLine(line, 'metadata extracted', id));
    checkedLines = lines.length;
    return found;
  };
  let polls = 0;
  while (performance.now() < deadline) {
    polls++;
    const response = await fetch(`${base}/api/records/${id}/`, { headers: { authorization: `JWT ${token}` } });
    if (response.status !== 200) throw new Error(`record read failed: ${response.status} ${await response.text()}`);
    const seenAt = performance.now();
    const [file] = (
      (await response.json()) as { FILES: Array<{ id: string; extraction_status: string; META: { STATUS?: string; FILE?: { TOTAL_ROWS: number } } }> }
    ).FILES;
    if (file.extraction_status !== 'pending' && file.extraction_status !== 'running') {
      if (file.META?.STATUS !== 'complete') throw new Error(`extraction ended ${file.extraction_status}: ${JSON.stringify(file.META).slice(0, 400)}`);
      const cpuNow = cpuMsOf(pid);
      const rowIndex = await logLine(product, 'row index built', file.id, 30 * 60_000);
      await quiet(quietPids);
      return {
        uploadMs: answeredAt - started,
        statsMs: seenAt - answeredAt,
        cpuMs: cpuNow - cpuAtAnswer,
        cpuTotalMs: cpuNow - cpuAtStart,
        rows: file.META.FILE?.TOTAL_ROWS ?? NaN,
        timings: await productTimings(product, file.id),
        rowIndexMs: typeof rowIndex?.ms === 'number' ? rowIndex.ms : NaN,
        polls,
      };
    }
    const nextPoll = performance.now() + FALLBACK_POLL_MS;
    while (!logged() && performance.now() < nextPoll) await sleep(LOG_CHECK_MS);
  }
  throw new Error('no complete META within 30 min of the upload');
}

export interface UploadPartOptions {
  dir: string;
  sizes: number[];
  rounds: number;
  command: string;
  loadAt: () => string;
  /** One child measurement of extraction.bench.ts (a fresh process). */
  measure: (mode: Mode, file: string) => Promise<Measurement>;
  /** The client sends at most this many MB (10^6 bytes) a second, as over a network; as fast as it can otherwise. */
  rateMBps?: number;
}

/** The section of docs/benchmarks.md a run writes: uploads paced as over a network have their own. */
export const uploadSectionName = (rateMBps?: number): string => (rateMBps ? `${UPLOAD_SECTION}-paced` : UPLOAD_SECTION);

/** The built product in embedded mode on a database of its own, signed in. */
async function startProduct(name: string, env: Record<string, string>): Promise<BenchProduct> {
  const db = await createTestDatabase(`dc_bench_${name.replace(/-/g, '_')}`);
  const dataDir = `/tmp/${db.name}`;
  rmSync(dataDir, { recursive: true, force: true });
  // The extraction at the peers' priority: by default it runs 5 nicer, so that on a busy machine the API and the database come first.
  const product = await startEmbeddedProduct(name, {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    SERVE_WEB: 'false',
    LOG_LEVEL: 'info',
    EXTRACTION_THREAD_NICE: '0',
    ...env,
  });
  const stop = async () => {
    await product.stop();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    return { product, token: await signIn(product.base, path.join(dataDir, 'mail'), 'uploadbench', PASSWORD), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function runUploadPart({ dir, sizes, rounds, command, loadAt, measure, rateMBps }: UploadPartOptions): Promise<string> {
  const loadStart = loadAt();
  const products: BenchProduct[] = [];
  const results: SizeResult[] = [];
  const cold: string[] = [];
  try {
    const product = await startProduct('extraction-upload-bench', {});
    products.push(product);
    const readBack = await startProduct('extraction-upload-bench-read-back', { EXTRACT_WHILE_UPLOADING: 'false' });
    products.push(readBack);
    const pids = products.map(({ product: { pid } }) => pid);
    // First uploads warm the products' code paths (the queries' plans, the extraction thread each keeps), as in a product that has run a while.
    for (const sizeMb of [0.1, 10]) {
      const csv = await generatedCsv(sizeMb, dir);
      const warmUp = await uploadOnce(product, csv, pids);
      await uploadOnce(readBack, csv, pids);
      cold.push(`${sizeMb} MB ${seconds(warmUp.statsMs)} (extract ${warmUp.timings.extractMs} ms)`);
    }
    for (const sizeMb of sizes) {
      const csv = await generatedCsv(sizeMb, dir);
      const result: SizeResult = { sizeMb, bytes: statSync(csv).size, uploads: [], readBack: [], summarize: [], library: [] };
      // In turns, so a change in the machine's load falls on all four alike.
      for (let round = 0; round < rounds; round++) {
        const upload = await uploadOnce(product, csv, pids, rateMBps);
        result.uploads.push(upload);
        const after = await uploadOnce(readBack, csv, pids, rateMBps);
        result.readBack.push(after);
        result.summarize.push(await measure('summarize-1', csv));
        result.library.push(await measure('extract-product', csv));
        console.log(
          `${sizeMb} MB round ${round + 1}: upload ${seconds(upload.uploadMs)}, answer to META ${seconds(upload.statsMs)} ` +
            `(queued ${upload.timings.queuedMs} ms, extract ${upload.timings.extractMs} ms, store ${upload.timings.storeMs} ms), row index ${seconds(upload.rowIndexMs)}, ${upload.polls} reads; ` +
            `read back after the upload: upload ${seconds(after.uploadMs)}, answer to META ${seconds(after.statsMs)}; ` +
            `SUMMARIZE 1 thread ${seconds(result.summarize.at(-1)!.ms)}; library alone ${seconds(result.library.at(-1)!.ms)}`,
        );
      }
      results.push(result);
    }
  } finally {
    for (const product of products) await product.stop();
  }
  return uploadSection(results, command, `${loadStart} / ${loadAt()}`, rounds, cold, rateMBps);
}

function uploadSection(results: SizeResult[], command: string, load: string, rounds: number, cold: string[], rateMBps?: number): string {
  const { start, end } = sectionMarkers(uploadSectionName(rateMBps));
  const lines = [
    start,
    rateMBps
      ? `### Upload to statistics with the client sending at ${rateMBps} MB/s (as over a network of ${((rateMBps * 8) / 1000).toFixed(1)} Gbit/s)`
      : '### Upload to statistics through the API, beside DuckDB SUMMARIZE on one thread',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)}. Command: \`${command}\`. Load average (1, 5, 15 min) at the start and end: ${load}.`,
    "The built product in embedded mode (one process, real PostgreSQL, files on its disk) takes each generated CSV as a user's",
    'upload (`POST /api/records/`, `extractOption` metadata: the full META). "Answer to META" is from the upload\'s 201 answer to',
    "the first `GET /api/records/{id}/` that shows the file's complete META, read as soon as the product logs that it stored META",
    `('metadata extracted', looked for every ${LOG_CHECK_MS} ms) and every ${FALLBACK_POLL_MS} ms regardless (a read costs the product about 5 ms of CPU). Beside it, in the`,
    `same run and in turns (${rounds} rounds, medians shown), DuckDB \`SUMMARIZE\` of the same file with \`threads = 1\` and the`,
    "extraction library's call alone as the product makes it (2 threads from 32 MiB, column sketches), each a fresh child",
    'process, and a second product that reads each file back after its upload (`EXTRACT_WHILE_UPLOADING=false`, as before the',
    'product described a large CSV while it arrives). The product paces an upload by that extraction, so its upload takes longer',
    'on this machine, where the client is as fast as the server: "upload start to META" (sending the upload to seeing META) is',
    "the fair comparison of the two. The product's columns come from its log line 'metadata extracted': queued is from the",
    "record's creation to the worker's claim, extract from the claim to META (waiting for the extraction made during the upload,",
    'or the storage read and the extraction thread), store from META to the commit of META with its events. CPU is user + system',
    "time: the products', all their threads, from sending the upload to the read; the peers', of the call in their child.",
    'The products run with `EXTRACTION_THREAD_NICE=0`, so that their extraction and the peers have the same priority (by default it runs 5',
    'nicer, so that on a busy machine the API and the database come first: `bench:profiling-api`).',
    "After META the relations service reads the file again for its row-hash index, in the background (its log line 'row index",
    "built', last column); every upload and every peer's run starts once both products are quiet (under 5 % of a core for 0.5 s).",
    `Files of ${THREAD_MIN_BYTES / 2 ** 20} MiB and more are profiled in the extraction thread the catalogue keeps; the first uploads after the`,
    `start warmed it and were not counted: answer to META ${cold.join(', ')}.`,
    '',
    '| file | rows | answer to META | ÷ SUMMARIZE (1 thread), median of the rounds | SUMMARIZE (1 thread) | library alone | product: queued / extract / store | upload | upload start to META | read back after the upload: answer to META / upload / upload start to META | CPU: product / read back / SUMMARIZE / library | row index after META |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|---|---|---:|',
  ];
  const total = (u: UploadMeasurement) => u.uploadMs + u.statsMs;
  for (const { sizeMb, bytes, uploads, readBack, summarize, library } of results) {
    const ratio = median(uploads.map((u, i) => u.statsMs / summarize[i].ms));
    const pick = (key: keyof ProductTimings) => median(uploads.map((u) => u.timings[key]));
    const after = [median(readBack.map((u) => u.statsMs)), median(readBack.map((u) => u.uploadMs)), median(readBack.map(total))].map(seconds).join(' / ');
    const cpu = [uploads.map((u) => u.cpuTotalMs), readBack.map((u) => u.cpuTotalMs), summarize.map((m) => m.cpuMs), library.map((m) => m.cpuMs)]
      .map((values) => seconds(median(values)))
      .join(' / ');
    lines.push(
      `| ${sizeMb} MB (${bytes} bytes) | ${uploads[0].rows} | ${seconds(median(uploads.map((u) => u.statsMs)))} | ${ratio.toFixed(2)} | ${seconds(median(summarize.map((m) => m.ms)))} | ` +
        `${seconds(median(library.map((m) => m.ms)))} | ${pick('queuedMs')} / ${pick('extractMs')} / ${pick('storeMs')} ms | ${seconds(median(uploads.map((u) => u.uploadMs)))} | ` +
        `${seconds(median(uploads.map(total)))} | ${after} | ${cpu} | ${seconds(median(uploads.map((u) => u.rowIndexMs)))} |`,
    );
  }
  lines.push(
    '',
    'Every round, answer to META / SUMMARIZE (1 thread) / library alone / read back after the upload: answer to META, upload start to META: ' +
      results
        .map(
          ({ sizeMb, uploads, readBack, summarize, library }) =>
            `${sizeMb} MB: ${uploads
              .map(
                (u, i) =>
                  `${seconds(u.statsMs)} / ${seconds(summarize[i].ms)} / ${seconds(library[i].ms)} / ${seconds(readBack[i].statsMs)}, ${seconds(total(readBack[i]))}`,
              )
              .join('; ')}`,
        )
        .join('. ') +
      '.',
    end,
  );
  return lines.join('\n');
}
