// extractMetadata: picks the extractor for the file's type and builds the spec's META around it.
import type { Readable } from 'node:stream';
import { withoutCellValues } from './cell-masking';
import type { Extracted, ExtractorContext } from './context';
import { extractCsv } from './csv';
import { csvThreadsFor, extractCsvInThreads } from './csv-threads';
import { contentTypeOf, fileKindOf } from './detect';
import { extractDocx } from './docx';
import { ExtractionError, UnsupportedFileError } from './errors';
import { extractHl7 } from './hl7';
import { extractPdf } from './pdf';
import { ColumnPrivacy } from './private-columns';
import { extractSpreadsheet } from './spreadsheet';
import { extractText } from './text';
import type { ExtractionInput, ExtractionOptions } from './options';
import { DEFAULT_LIMITS, type ExtractionLimits, type ExtractionResult, type FileKind } from './types';
import { extractZip } from './zip';

export function resolveLimits(limits?: Partial<ExtractionLimits>): ExtractionLimits {
  const merged: ExtractionLimits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {}) as Array<[keyof ExtractionLimits, number | undefined]>) {
    if (value !== undefined) (merged as unknown as Record<string, number>)[key] = value;
  }
  return merged;
}

function run(kind: FileKind, stream: Readable, ctx: ExtractorContext): Promise<Extracted> {
  switch (kind) {
    case 'csv': {
      const threads = csvThreadsFor(ctx);
      return threads > 1 ? extractCsvInThreads(stream, ctx, threads) : extractCsv(stream, ctx);
    }
    case 'txt':
      return extractText(stream, ctx);
    case 'hl7':
      return extractHl7(stream, ctx);
    case 'xls':
    case 'xlsx':
      return extractSpreadsheet(stream, ctx, kind);
    case 'pdf':
      return extractPdf(stream, ctx);
    case 'docx':
      return extractDocx(stream, ctx);
    case 'zip':
      if (!ctx.allowArchives) return Promise.reject(new UnsupportedFileError('Nested archives are not opened'));
      return extractZip(stream, ctx, (member, name, size) =>
        describe({ stream: member, fileName: name, size }, { ...ctx, fileName: name, size, allowArchives: false }, 'report'),
      );
    default:
      return Promise.reject(new UnsupportedFileError(`No metadata extraction for this type of file (${ctx.fileName}): indexed without it`));
  }
}

async function describe(input: ExtractionInput, ctx: ExtractorContext, onInvalid: 'report' | 'throw'): Promise<ExtractionResult> {
  const kind = fileKindOf(input.fileName, input.contentType);
  const base = {
    NAME: input.fileName,
    CONTENT_TYPE: contentTypeOf(input.fileName, input.contentType),
    DATE: new Date().toISOString(),
    TYPE: kind,
    EXTRACT_OPTION: ctx.option,
  };
  try {
    const { bytesRead, ...extracted } = await run(kind, input.stream, ctx);
    return { ...base, SIZE: input.size ?? bytesRead ?? null, ...extracted };
  } catch (error) {
    if (!(error instanceof ExtractionError) || onInvalid === 'throw') throw error;
    if (!input.stream.destroyed) input.stream.destroy();
    return {
      ...base,
      SIZE: input.size ?? null,
      STATUS: error instanceof UnsupportedFileError ? 'skipped' : 'failed',
      ERRORS: [error.message],
    };
  }
}

/** Private-column choices that matched no column are worth telling (a misspelt name hides nothing). */
export function withPrivacyNotes(result: ExtractionResult, ctx: Pick<ExtractorContext, 'privacy'>): ExtractionResult {
  if (!ctx.privacy || result.STATUS === 'failed' || result.STATUS === 'skipped') return result;
  const notes = ctx.privacy.unmatched();
  const keyId = ctx.privacy.keyId();
  const linked = keyId && result.ENCRYPTED_COLS?.length ? { LINKAGE_KEY_ID: keyId } : {};
  const clk = ctx.privacy.clkColumns().filter((h) => result.ENCRYPTED_COLS?.includes(h));
  return { ...result, ...linked, ...(clk.length > 0 && { CLK_COLS: clk }), ERRORS: notes.length ? [...result.ERRORS, ...notes] : result.ERRORS };
}

/**
 * Describes one file read from a stream (spec META). 'minimal' does not read the stream (the caller
 * still owns it); otherwise the stream is read to its end, or destroyed when extraction stops early.
 * Stream errors reject; content problems resolve with STATUS and ERRORS unless onInvalid is 'throw'.
 */
export async function extractMetadata(input: ExtractionInput, options: ExtractionOptions): Promise<ExtractionResult> {
  const result = await describeFile(input, options);
  return options.cellValues === 'raw' ? result : withoutCellValues(result);
}

async function describeFile(input: ExtractionInput, options: ExtractionOptions): Promise<ExtractionResult> {
  const { extractOption } = options;
  if (extractOption === 'minimal') {
    return {
      NAME: input.fileName,
      CONTENT_TYPE: contentTypeOf(input.fileName, input.contentType),
      SIZE: input.size ?? null,
      DATE: new Date().toISOString(),
      TYPE: fileKindOf(input.fileName, input.contentType),
      EXTRACT_OPTION: 'minimal',
      STATUS: 'skipped',
      ERRORS: [],
    };
  }
  const ctx: ExtractorContext = {
    option: extractOption,
    limits: resolveLimits(options.limits),
    fileName: input.fileName,
    size: input.size,
    allowArchives: true,
    privacy: ColumnPrivacy.isActive(options.privateColumns) ? new ColumnPrivacy(options.privateColumns) : undefined,
    observers: options.sketches,
    threads: options.threads,
  };
  const { signal } = options;
  if (!signal) return withPrivacyNotes(await describe(input, ctx, options.onInvalid ?? 'report'), ctx);
  signal.throwIfAborted();
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      input.stream.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const work = describe(input, ctx, options.onInvalid ?? 'report');
  work.catch(() => undefined); // after an abort its rejection (the destroyed stream) is not news
  try {
    return withPrivacyNotes(await Promise.race([work, aborted]), ctx);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
