// .docx with mammoth: the document's text (paragraphs) and its number of tables. The container is
// checked against zip bombs first, then read in memory up to maxDocumentBytes.
import type { Readable } from 'node:stream';
import type { Extracted, ExtractorContext } from './context';
import { CorruptFileError } from './errors';
import { readInMemory } from './io';
import { documentWords, TextStats } from './text';
import { checkZipDocument } from './zip';

export async function extractDocx(stream: Readable, ctx: ExtractorContext): Promise<Extracted> {
  const { limits } = ctx;
  const buffer = await readInMemory(stream, ctx.size, limits.maxDocumentBytes, 'maxDocumentBytes', 'documents');
  if (buffer.length < 4 || buffer.readUInt32LE(0) !== 0x04034b50) throw new CorruptFileError('Not a Word (.docx) document: not a zip container');
  await checkZipDocument(buffer, limits, 10 * limits.maxDocumentBytes); // mammoth inflates in memory

  let text: string;
  let html: string;
  const mammoth = await import('mammoth'); // loaded on first use
  try {
    text = (await mammoth.extractRawText({ buffer })).value;
    html = (await mammoth.convertToHtml({ buffer })).value;
  } catch (error) {
    throw new CorruptFileError(`Damaged Word document: ${(error as Error).message}`, { cause: error });
  }
  const stats = new TextStats(Number.MAX_SAFE_INTEGER);
  stats.push(text);
  stats.end();
  const paragraphs = text.split(/\n{2,}/).filter((p) => p.trim() !== '').length;
  const tables = (html.match(/<table[\s>]/g) ?? []).length;
  const errors = stats.words === 0 ? ['The document holds no text'] : [];
  return {
    STATUS: 'complete',
    DOCUMENT: { PARAGRAPHS: paragraphs, TABLES: tables, ...stats.info() },
    ...documentWords(stats, ctx),
    ERRORS: errors,
    bytesRead: buffer.length,
  };
}
