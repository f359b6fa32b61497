/**
 * Metadata extraction (spec section 3, File META; section 9, extract options), as pure functions over
 * streams. Platform-neutral: no NestJS, no database; the catalogue service calls it after an upload.
 *
 *   const meta = await extractMetadata({ stream, fileName, contentType, size }, { extractOption: 'metadata' });
 *
 * - minimal: NAME, CONTENT_TYPE, SIZE, DATE only; the stream is not read.
 * - metadata (default): headers, row counts, per-column statistics, keywords. No cell of the data
 *   leaves extraction (withoutCellValues, docs/metadata-before-access.md): FORMATTED_VALS and SAMPLE_VALS
 *   are shape masks ("Xxxxx 99"), columns have no WORDSET and a table's KEYWORDS are its headers' words.
 *   Documents keep their words. options.cellValues 'raw' gives the unmasked profile (tests, benchmarks).
 * - samples: SAMPLE_VALS are real values, a reservoir sample over the whole column.
 *
 * Streamed in flat memory: CSV/TSV (papaparse on quote-aware record slices), TXT and HL7. Read in memory
 * under a size limit (their formats need random access): XLS/XLSX (maxSpreadsheetBytes; an .xlsx's sheets
 * are then inflated and scanned one row at a time, xlsx-reader.ts, and a BIFF8 .xls's records walked one
 * row at a time, xls-reader.ts; SheetJS parses whole what those decline), PDF and DOCX (maxDocumentBytes).
 * ZIP is spooled to a temporary file and its members are streamed, each described by its own type, under
 * entry, size and ratio limits; unsafe entry names reject the archive. Other types resolve with STATUS
 * 'skipped'. A CSV of 32 MiB or more is described by worker threads
 * (options.threads, csv-threads.ts: each reads every record and describes its share of the columns),
 * with the same META as one thread.
 *
 * Private columns (options.privateColumns, spec: exclude, mask or plain, plus a hash option) apply to
 * every table of the file, picked by position or header name: hashed columns are described from the
 * keyed hashes of their values, masked ones show no value, excluded ones are left out. META then holds
 * ENCRYPTED_COLS (hashed header names), SHARE_FORMATS ({index, format, hash} per shown column) and,
 * with hashed columns, LINKAGE_KEY_ID. Hashing is keyed with the caller's linkage key
 * (HMAC-SHA256, docs/private-linkage.md); columns hashed in the browser arrive as `prehashed`.
 * `fuzzy` columns are hashed as CLKs (keyed Bloom filters of bigrams, clk.ts) and listed in CLK_COLS.
 *
 * Content problems (empty, corrupt, too large, unsupported) resolve with STATUS 'failed' or 'skipped'
 * and ERRORS, or reject with the typed errors below when onInvalid is 'throw'; an error of the input
 * stream always rejects (so a caller can retry the read).
 */
export * from './types';
export * from './options';
export * from './table-observer';
export * from './errors';
export { extractMetadata, resolveLimits } from './extract';
export { fileKindOf, contentTypeOf, EXTRACTED_CONTENT_TYPES } from './detect';
export { detectDelimiter } from './csv';
export { revived as revivedExtractionError } from './csv-thread';
export { IdleWorkers } from './idle-workers';
export { keyedHash, linkageKeyId, parseLinkageKey, HASH_PATTERN, LINKAGE_KEY_PATTERN, maskOf } from './private-columns';
export { bigramsOf, CLK_PATTERN, clkEncoder, clkFilter, clkKeyOf, DEFAULT_CLK, type ClkOptions } from './clk';
export { isMaskShaped, maskCellValue, withoutCellValues } from './cell-masking';
export * from './identifying-statistics';
export { seededRandom } from './seeded-random';
export { buildZip, type ZipEntrySpec } from './zip-writer';
export { describeAggregatedTable, type AggregatedTableSource, type AggregatedTableInput, type ColumnAggregates } from './aggregated';
export * from './sketch';
