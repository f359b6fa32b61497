// Worker thread entry of csv-threads.ts: reads the chunks it is posted as readCsv reads a stream,
// accumulating only its share of the columns; thread 0 builds META with the others' columns.
import { parentPort, workerData } from 'node:worker_threads';
import type { ExtractorContext } from './context';
import { describeCsv, readCsv } from './csv';
import type { CsvThreadData, FromCsvThread, ToCsvThread } from './csv-threads';
import { ColumnPrivacy } from './private-columns';
import { SketchCollector } from './sketch';
import type { ColumnPart } from './table';

const port = parentPort as NonNullable<typeof parentPort>;
const data = workerData as CsvThreadData;
const send = (message: FromCsvThread): void => port.postMessage(message);

const batches: Array<{ shared: SharedArrayBuffer; ends: number[] } | null> = [];
let wake: (() => void) | null = null;
let receiveParts: (parts: ColumnPart[]) => void = () => undefined;
const parts = new Promise<ColumnPart[]>((resolve) => (receiveParts = resolve));

port.on('message', (message: ToCsvThread) => {
  if (message.type === 'parts') return receiveParts(message.parts);
  batches.push(message.type === 'chunks' ? message : null);
  const waiting = wake;
  wake = null;
  waiting?.();
});

/**
 * The posted chunks one by one, as they came from the stream. A batch is acknowledged when the next
 * chunk is asked for, so once readCsv is done with its last one: its buffer is then reused.
 */
async function* chunks(): AsyncGenerator<Uint8Array> {
  for (;;) {
    while (batches.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    const batch = batches.shift();
    if (!batch) return;
    let start = 0;
    for (const end of batch.ends) {
      yield new Uint8Array(batch.shared, start, end - start);
      start = end;
    }
    send({ type: 'consumed' });
  }
}

async function main(): Promise<void> {
  // This thread's columns' sketches; the caller's collector takes them all in.
  const sketches = data.sketchBudget === undefined ? undefined : new SketchCollector(data.sketchBudget);
  const ctx: ExtractorContext = {
    option: data.option,
    limits: data.limits,
    fileName: data.fileName,
    size: data.size,
    allowArchives: false,
    privacy: data.privateColumns ? new ColumnPrivacy(data.privateColumns) : undefined,
    observers: sketches,
  };
  // Not a Readable: it would ask for chunks ahead, and so acknowledge batches still being read.
  const read = await readCsv({ [Symbol.asyncIterator]: chunks, destroy: () => undefined }, ctx, {}, { index: data.index, of: data.of });
  if (data.index !== 0) {
    const own = read.table.ownParts();
    return send({ type: 'read', parts: own, sketch: sketches?.tables[0] });
  }
  send({ type: 'read', parts: [] });
  read.table.adopt(await parts);
  const extracted = describeCsv(read, ctx);
  send({ type: 'done', extracted, headers: read.table.headers, sketch: sketches?.tables[0], sketchBudget: sketches?.budgetLeft ?? 0 });
}

main().catch((error: unknown) => {
  const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
  send({ type: 'failed', error: { name, message, stack } });
});
