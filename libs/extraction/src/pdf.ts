// .pdf with pdf-parse (PDF.js underneath): page count, text, and the Info dictionary's title,
// author and subject. PDF needs random access, so the file is read in memory up to maxDocumentBytes.
import type { Readable } from 'node:stream';
import type { Extracted, ExtractorContext } from './context';
import { CorruptFileError } from './errors';
import { readInMemory } from './io';
import { documentWords, TextStats } from './text';
import type { DocumentInfo } from './types';

function infoText(info: unknown, key: string): string | undefined {
  const value = (info as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export async function extractPdf(stream: Readable, ctx: ExtractorContext): Promise<Extracted> {
  const { limits } = ctx;
  const buffer = await readInMemory(stream, ctx.size, limits.maxDocumentBytes, 'maxDocumentBytes', 'PDFs');
  if (!buffer.subarray(0, 1024).toString('latin1').includes('%PDF-')) throw new CorruptFileError('Not a PDF: no %PDF- header');

  const { PDFParse } = await import('pdf-parse'); // loaded on first use: PDF.js is large
  const parser = new PDFParse({ data: new Uint8Array(buffer), verbosity: 0 });
  try {
    let pages: number;
    let text: string;
    let info: unknown;
    try {
      const result = await parser.getText();
      pages = result.total;
      text = result.pages.map((p) => p.text).join('\n');
      info = (await parser.getInfo()).info;
    } catch (error) {
      throw new CorruptFileError(`Damaged PDF: ${(error as Error).message}`, { cause: error });
    }
    // Zero-width spaces (Google Docs exports) would glue or split words.
    const stats = new TextStats(Number.MAX_SAFE_INTEGER);
    stats.push(text.replace(/[\u200b-\u200d\u2060\ufeff]/g, ''));
    stats.end();
    const document: DocumentInfo = { PAGES: pages, ...stats.info() };
    for (const [key, field] of [
      ['Title', 'TITLE'],
      ['Author', 'AUTHOR'],
      ['Subject', 'SUBJECT'],
    ] as const) {
      const value = infoText(info, key);
      if (value) document[field] = value;
    }
    const errors = stats.words === 0 ? ['No text could be extracted (a scanned or image-only PDF?)'] : [];
    return { STATUS: 'complete', DOCUMENT: document, ...documentWords(stats, ctx), ERRORS: errors, bytesRead: buffer.length };
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}
