// Worker thread entry of csv-threads.ts (started by csv-thread.ts): for each file it is given, describes the blocks of records
// it is handed, one after the other, into one table whose figures it hands back block by block; at the end, the distinct values
// and sketches it counted over all the file's blocks. It then waits for the next file.
import { parentPort } from 'node:worker_threads';
import { describeBlock } from './csv-blocks';
import { ByteRecords } from './csv-bytes';
import type { CsvThreadData, FromCsvThread, ToCsvThread } from './csv-thread';
import { ColumnPrivacy } from './private-columns';
import { SketchCollector } from './sketch';
import { TableBuilder } from './table';

const port = parentPort as NonNullable<typeof parentPort>;
const send = (message: FromCsvThread): void => port.postMessage(message);

/** The file being described. */
let file: { data: CsvThreadData; table: TableBuilder } | null = null;
// Reused from block to block and file to file.
const records = new ByteRecords();

function open(data: CsvThreadData): { data: CsvThreadData; table: TableBuilder } {
  const sketches = data.sketchBudget === undefined ? undefined : new SketchCollector(data.sketchBudget, true);
  const table = new TableBuilder(data.headers, {
    option: data.option,
    limits: data.limits,
    decimalComma: data.info.DELIMITER === ';',
    privacy: data.privateColumns ? new ColumnPrivacy(data.privateColumns) : undefined,
    observers: sketches,
    tableName: data.fileName,
  });
  return { data, table };
}

port.on('message', (message: ToCsvThread) => {
  try {
    if (message.type === 'start') file = open(message.data);
    else if (!file) throw new Error('a CSV worker thread was handed a block before its file');
    else if (message.type === 'block') {
      const outcome = describeBlock(message.block, file.table, file.data.info, file.data.limits.maxLineBytes, records);
      port.postMessage({ type: 'block', outcome } satisfies FromCsvThread, [outcome.buffer]);
    } else {
      send({ type: 'done', distinct: file.table.distinctStates(), sketch: file.table.sketchState() });
      file = null;
    }
  } catch (error) {
    const { name, message: text, stack } = error instanceof Error ? error : new Error(String(error));
    send({ type: 'failed', error: { name, message: text, stack } });
  }
});
