// Worker thread entry of csv-threads.ts (started by csv-thread.ts): describes the blocks of records it is handed, one after the
// other, into one table whose figures it hands back block by block; at the end, the distinct values
// and sketches it counted over all its blocks.
import { parentPort, workerData } from 'node:worker_threads';
import { describeBlock } from './csv-blocks';
import { ByteRecords } from './csv-bytes';
import type { CsvThreadData, FromCsvThread, ToCsvThread } from './csv-thread';
import { ColumnPrivacy } from './private-columns';
import { SketchCollector } from './sketch';
import { TableBuilder } from './table';

const port = parentPort as NonNullable<typeof parentPort>;
const data = workerData as CsvThreadData;
const send = (message: FromCsvThread): void => port.postMessage(message);

const sketches = data.sketchBudget === undefined ? undefined : new SketchCollector(data.sketchBudget, true);
const table = new TableBuilder(data.headers, {
  option: data.option,
  limits: data.limits,
  decimalComma: data.info.DELIMITER === ';',
  privacy: data.privateColumns ? new ColumnPrivacy(data.privateColumns) : undefined,
  observers: sketches,
  tableName: data.fileName,
});

const records = new ByteRecords();

port.on('message', (message: ToCsvThread) => {
  try {
    if (message.type === 'block') {
      const outcome = describeBlock(message.block, table, data.info, data.limits.maxLineBytes, records);
      port.postMessage({ type: 'block', outcome } satisfies FromCsvThread, [outcome.buffer]);
    } else send({ type: 'done', distinct: table.distinctStates(), sketch: table.sketchState() });
  } catch (error) {
    const { name, message: text, stack } = error instanceof Error ? error : new Error(String(error));
    send({ type: 'failed', error: { name, message: text, stack } });
  }
});
