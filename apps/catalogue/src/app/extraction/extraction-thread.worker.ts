// The worker thread of extraction-thread.ts: describes one file at a time from the chunks the
// catalogue's thread posts, and answers META (and the column sketches). A chunk is acknowledged once
// its stream takes it, so the posting side never holds more than a few chunks of the file. It stays
// for the next file; messages of an earlier file (chunks still under way when it failed) are dropped.
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { extractMetadata, SketchCollector } from '@dc/extraction';
import type { ExtractionJob, ExtractionThreadData, FromExtractionThread, ToExtractionThread } from './extraction-thread';
import { lowerThisThreadsPriority } from './thread-priority';

const port = parentPort!;
// Background work: when the CPU is short, the API's thread (and the database) come first.
lowerThisThreadsPriority((workerData as ExtractionThreadData).nice);
const send = (message: FromExtractionThread) => port.postMessage(message);

/** The file being described: its job number and the stream its chunks go into. */
let current: { job: number; stream: Readable; owed: number } | null = null;

function start(job: number, data: ExtractionJob): void {
  const file = { job, owed: 0, stream: new Readable({ read: () => acknowledge(file) }) };
  current = file;
  const sketches = data.sketches ? new SketchCollector() : undefined;
  extractMetadata(
    { stream: file.stream, fileName: data.fileName, contentType: data.contentType, size: data.size },
    { extractOption: data.extractOption, privateColumns: data.privateColumns, sketches, threads: data.threads },
  )
    .then((meta) => send({ job, type: 'done', meta: meta as unknown as Record<string, unknown>, sketches: sketches?.tables ?? null }))
    .catch((error: Error) => send({ job, type: 'failed', error: { name: error.name, message: error.message, stack: error.stack } }))
    .finally(() => {
      // What was not read (an early stop, or 'minimal') is dropped with the stream.
      file.stream.destroy();
      if (current === file) current = null;
    });
}

function acknowledge(file: { job: number; owed: number }): void {
  for (; file.owed > 0; file.owed--) send({ job: file.job, type: 'consumed' });
}

port.on('message', (message: ToExtractionThread) => {
  if (message.type === 'start') return start(message.job, message.data);
  const file = current;
  if (!file || file.job !== message.job) return;
  if (message.type === 'chunk') {
    if (file.stream.push(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength))) send({ job: file.job, type: 'consumed' });
    else file.owed++;
  } else if (message.type === 'end') file.stream.push(null);
  else file.stream.destroy(new Error(message.message));
});
