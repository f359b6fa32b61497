// The worker thread of extraction-thread.ts: describes one file from the chunks the catalogue's
// thread posts, and answers META (and the column sketches). A chunk is acknowledged once its stream
// takes it, so the posting side never holds more than a few chunks of the file.
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { extractMetadata, SketchCollector } from '@dc/extraction';
import type { ExtractionThreadData, FromExtractionThread, ToExtractionThread } from './extraction-thread';
import { lowerThisThreadsPriority } from './thread-priority';

const port = parentPort!;
const data = workerData as ExtractionThreadData;
// Background work: when the CPU is short, the API's thread (and the database) come first.
lowerThisThreadsPriority(data.nice);
const send = (message: FromExtractionThread) => port.postMessage(message);

let owed = 0;
const stream = new Readable({
  read() {
    for (; owed > 0; owed--) send({ type: 'consumed' });
  },
});

port.on('message', (message: ToExtractionThread) => {
  if (message.type === 'chunk') {
    if (stream.push(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength))) send({ type: 'consumed' });
    else owed++;
  } else if (message.type === 'end') stream.push(null);
  else stream.destroy(new Error(message.message));
});

const sketches = data.sketches ? new SketchCollector() : undefined;
extractMetadata(
  { stream, fileName: data.fileName, contentType: data.contentType, size: data.size },
  { extractOption: data.extractOption, privateColumns: data.privateColumns, sketches, threads: data.threads },
)
  .then((meta) => send({ type: 'done', meta: meta as unknown as Record<string, unknown>, sketches: sketches?.tables ?? null }))
  .catch((error: Error) => send({ type: 'failed', error: { name: error.name, message: error.message, stack: error.stack } }))
  // The main thread ends this worker once it has the answer; until then the port keeps it alive.
  .finally(() => port.unref());
