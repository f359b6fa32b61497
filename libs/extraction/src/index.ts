/**
 * Metadata extraction (spec section 3, File META; section 9, extract options), as pure functions over
 * streams. Platform-neutral: no NestJS, no database; the catalogue service calls it after an upload.
 *
 *   const meta = await extractMetadata({ stream, fileName, contentType, size }, { extractOption: 'metadata' });
 *
 * - minimal: NAME, CONTENT_TYPE, SIZE, DATE only; the stream is not read.
 * - metadata (default): headers, row counts, per-column statistics, word sets, keywords. SAMPLE_VALS are
 *   synthetic (evenly spaced numbers between MIN and MAX, character masks such as "Xxxxx 99" for text),
 *   so no cell leaves the file as a sample unless the owner chose 'samples'. FORMATTED_VALS still show
 *   the first 5 rows, as the spec's details screen requires.
 * - samples: SAMPLE_VALS are real values, a reservoir sample over the whole column.
 *
 * Streamed in flat memory: CSV/TSV (papaparse on quote-aware record slices), TXT and HL7. Read in memory
 * under a size limit (their formats need random access): XLS/XLSX (SheetJS, maxSpreadsheetBytes), PDF
 * and DOCX (maxDocumentBytes). ZIP is spooled to a temporary file and its members are streamed, each
 * described by its own type, under entry, size and ratio limits; unsafe entry names reject the archive.
 * Other types resolve with STATUS 'skipped'.
 *
 * Private columns (options.privateColumns, spec: exclude, mask or plain, plus a hash option) apply to
 * every table of the file, picked by position or header name: hashed columns are described from the
 * keyed hashes of their values, masked ones show no value, excluded ones are left out. META then holds
 * ENCRYPTED_COLS (hashed header names) and SHARE_FORMATS ({index, format, hash} per shown column).
 *
 * Content problems (empty, corrupt, too large, unsupported) resolve with STATUS 'failed' or 'skipped'
 * and ERRORS, or reject with the typed errors below when onInvalid is 'throw'; an error of the input
 * stream always rejects (so a caller can retry the read).
 */
export * from './types';
export * from './errors';
export { extractMetadata, resolveLimits } from './extract';
export { fileKindOf, contentTypeOf } from './detect';
export { detectDelimiter } from './csv';
export { keyedHash } from './private-columns';
export { seededRandom } from './column';
export { buildZip, type ZipEntrySpec } from './zip-writer';
