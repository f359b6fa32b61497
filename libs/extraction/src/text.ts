// Plain text: lines, words and characters counted while streaming; only a word cut by a chunk
// boundary is carried over, so memory stays flat even for a file that is one huge line.
import type { Readable } from 'node:stream';
import type { Extracted, ExtractorContext } from './context';
import { CorruptFileError } from './errors';
import { isBinary, TextChunkDecoder, toBytes } from './io';
import type { DocumentInfo } from './types';
import { keywordsOf, TopWords } from './words';

const WORD_CHAR = /[\p{L}\p{N}'’-]/u;
/** Longer "words" are not words (base64, hashes): their carry is dropped. */
const MAX_WORD = 256;
/** Distinct words tracked for a document's WORDSET and KEYWORDS. */
export const DOCUMENT_WORD_CAPACITY = 20_000;

/** Counts words, lines and characters of text given in pieces. */
export class TextStats {
  lines = 0;
  words = 0;
  characters = 0;
  longLines = 0;
  firstLongLine = 0;
  readonly counter = new TopWords(DOCUMENT_WORD_CAPACITY);
  private carry = '';
  private lineLength = 0;
  private sawText = false;

  constructor(private readonly maxLine: number) {}

  push(text: string): void {
    if (text === '') return;
    this.sawText = true;
    this.characters += text.length;
    this.countLines(text);
    let cut = text.length;
    while (cut > 0 && text.length - cut < MAX_WORD && WORD_CHAR.test(text[cut - 1])) cut--;
    if (text.length - cut >= MAX_WORD) cut = text.length;
    const body = this.carry + text.slice(0, cut);
    this.carry = text.slice(cut);
    this.words += this.counter.addText(body);
  }

  end(): void {
    this.words += this.counter.addText(this.carry);
    this.carry = '';
    if (this.sawText && this.lineLength > 0) this.endLine();
  }

  info(): DocumentInfo {
    return { LINES: this.lines, WORDS: this.words, CHARACTERS: this.characters };
  }

  private countLines(text: string): void {
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      this.lineLength += nl - from;
      this.endLine();
      from = nl + 1;
    }
    this.lineLength += text.length - from;
  }

  private endLine(): void {
    this.lines++;
    if (this.lineLength > this.maxLine) {
      if (this.longLines === 0) this.firstLongLine = this.lines;
      this.longLines++;
    }
    this.lineLength = 0;
  }
}

export function documentWords(stats: TextStats, ctx: ExtractorContext): Pick<Extracted, 'KEYWORDS' | 'WORDSET'> {
  return {
    KEYWORDS: keywordsOf(stats.counter, ctx.limits.maxKeywords),
    WORDSET: stats.counter.top(ctx.limits.maxWords),
  };
}

export async function extractText(stream: Readable, ctx: ExtractorContext): Promise<Extracted> {
  const decoder = new TextChunkDecoder();
  const stats = new TextStats(ctx.limits.maxLineBytes);
  let bytes = 0;
  for await (const chunk of stream) {
    const data = toBytes(chunk);
    if (bytes === 0 && isBinary(data)) {
      stream.destroy();
      throw new CorruptFileError('The file holds binary data (NUL bytes), not text');
    }
    bytes += data.length;
    stats.push(decoder.decode(data));
  }
  stats.push(decoder.end());
  stats.end();
  if (bytes === 0) throw new CorruptFileError('The file is empty');
  const errors: string[] = [];
  const problem = decoder.problem();
  if (problem) errors.push(problem);
  if (stats.longLines > 0) {
    errors.push(
      `${stats.longLines} lines are longer than ${ctx.limits.maxLineBytes} characters (maxLineBytes; first: line ${stats.firstLongLine}); they were counted, not kept`,
    );
  }
  return {
    STATUS: 'complete',
    DOCUMENT: { ...stats.info(), ENCODING: decoder.encoding },
    ...documentWords(stats, ctx),
    ERRORS: errors,
    bytesRead: bytes,
  };
}
