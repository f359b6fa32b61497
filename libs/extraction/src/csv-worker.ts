// Worker thread entry of csv-threads.ts: reads the chunks it is posted as readCsv reads a stream,
// accumulating only its share of the columns; thread 0 builds META with the others' columns.
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { ExtractorContext } from './context';
import { describeCsv, readCsv } from './csv';
import type { CsvThreadData, FromCsvThread, ToCsvThread } from './csv-threads';
import { ColumnPrivacy } from './private-columns';
import type { ColumnPart } from './table';

const port = parentPort as NonNullable<typeof parentPort>;
const data = workerData as CsvThreadData;
const send = (message: FromCsvThread): void => port.postMessage(message);

const batches: Array<Uint8Array[] | null> = [];
let wake: (() => void) | null = null;
let receiveParts: (parts: ColumnPart[]) => void = () => undefined;
const parts = new Promise<ColumnPart[]>((resolve) => (receiveParts = resolve));

port.on('message', (message: ToCsvThread) => {
  if (message.type === 'parts') return receiveParts(message.parts);
  batches.push(message.type === 'chunks' ? message.chunks : null);
  const waiting = wake;
  wake = null;
  waiting?.();
});

/** The posted chunks one by one, as they came from the stream; a batch is acknowledged once read. */
async function* chunks(): AsyncGenerator<Uint8Array> {
  for (;;) {
    while (batches.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    const batch = batches.shift();
    if (!batch) return;
    yield* batch;
    send({ type: 'consumed' });
  }
}

async function main(): Promise<void> {
  const ctx: ExtractorContext = {
    option: data.option,
    limits: data.limits,
    fileName: data.fileName,
    size: data.size,
    allowArchives: false,
    privacy: data.privateColumns ? new ColumnPrivacy(data.privateColumns) : undefined,
  };
  // Object mode: readCsv sees the chunks exactly as the stream gave them.
  const stream = Readable.from(chunks(), { highWaterMark: 1 });
  const read = await readCsv(stream, ctx, {}, (i) => i % data.of === data.index);
  if (data.index !== 0) return send({ type: 'read', parts: read.table.ownParts() });
  send({ type: 'read', parts: [] });
  read.table.adopt(await parts);
  send({ type: 'done', extracted: describeCsv(read, ctx), headers: read.table.headers });
}

main().catch((error: unknown) => {
  const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
  send({ type: 'failed', error: { name, message, stack } });
});
