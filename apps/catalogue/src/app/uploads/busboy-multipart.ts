import { HttpException } from '@nestjs/common';
import busboy from 'busboy';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable, type Writable } from 'node:stream';
import { DetailError, FieldValidationError, unstorableTextMessage } from '@dc/platform';
import { EXTRACTED_CONTENT_TYPES } from '@dc/extraction';
import { ObjectStorage, ObjectTooLargeError } from '@dc/storage';

export interface StoredUpload {
  fileId: string;
  key: string;
  fileName: string;
  contentType: string;
  size: number;
  checksum: string;
}

export interface ReceivedForm {
  /** Text fields of a form; JSON bodies give their values as they are. */
  fields: Record<string, unknown>;
  files: StoredUpload[];
}

export interface ReceiveOptions {
  /** The whole upload (every file together) may not exceed this. */
  maxBytes: number;
  /** Where a file goes in the object store. */
  keyFor: (fileId: string) => string;
  /** Called before the first byte is stored under the key (crash recovery registers it first). */
  beforePut?: (key: string) => Promise<void>;
  /** Given a copy of each file's bytes as they are stored (statistics while uploading). */
  copies?: UploadCopies;
}

/** A file part as it starts: where it will be stored, and the form's fields sent before it. */
export interface FilePartStart {
  key: string;
  fileName: string;
  contentType: string;
  fields: Record<string, unknown>;
}

/** Takes copies of uploaded files' bytes (EarlyExtractions). */
export interface UploadCopies {
  /** A stream for a copy of this part's bytes, or null. */
  begin(part: FilePartStart): Writable | null;
  /** The object under this key was not kept (the upload failed, or the part was empty). */
  discard(key: string): void;
}

const FILE_FIELDS = new Set(['file', 'files', 'file[]', 'files[]']);

/** Without a helpful content type from the browser, the extension decides (extraction types of spec section 4). */
const CONTENT_TYPES = EXTRACTED_CONTENT_TYPES;

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

export function contentTypeOf(fileName: string, announced: string | undefined): string {
  const type = (announced ?? '').trim().toLowerCase();
  if (type && type !== 'application/octet-stream') return type;
  return CONTENT_TYPES[extensionOf(fileName)] ?? 'application/octet-stream';
}

/**
 * The base name only (some browsers send a path), without control characters or the bidirectional
 * overrides that make "report\u202Ecod.exe" read as "reportexe.doc", at most 255 characters.
 */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  return base
    .replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .slice(0, 255);
}

/** Stored in place of a name that names no file ("", ".", "..", "a/..", a folder). */
export const UNNAMED_FILE = 'unnamed';

/**
 * The name a file is stored under: its clean base name, or "unnamed" (with the extension its
 * content type suggests) when nothing usable is left, so the file is kept rather than dropped.
 */
export function storedFileName(sent: string | undefined, contentType: string): string {
  const clean = cleanFileName(sent ?? '');
  if (clean && !/^\.+$/.test(clean)) return clean;
  const extension = Object.entries(CONTENT_TYPES).find(([, type]) => type === contentType.toLowerCase())?.[0];
  return extension ? `${UNNAMED_FILE}.${extension}` : UNNAMED_FILE;
}

/** Errors of a stream that another party reports (the parser, the store): it must not throw them itself. */
const reportedElsewhere = (): void => undefined;

/** A copy that holds the upload back this long without taking a byte is dropped: the upload goes on without it. */
export const COPY_STALL_MS = 5_000;

/**
 * Feeds a busboy file stream into a stream the store owns, and into `copy` (when given) a copy of
 * each chunk, with chunks of their own (the copy's reader may hand them to another thread). The part
 * waits while either is full; a copy that is closed no longer counts, and one that stays full for
 * COPY_STALL_MS is closed (with an error), so it never holds an upload up for long. When the store
 * gives up (limit, error) the part is still drained, so busboy keeps parsing instead of waiting for a reader forever.
 */
function detach(source: Readable, copy: Writable | null): PassThrough {
  const body = new PassThrough();
  const full = new Set<Writable>();
  let stalled: NodeJS.Timeout | undefined;
  const open = (sink: Writable | null): sink is Writable => sink !== null && !sink.destroyed && !sink.writableEnded;
  const freed = (sink: Writable) => {
    if (sink === copy) {
      clearTimeout(stalled);
      stalled = undefined;
    }
    full.delete(sink);
    if (full.size === 0 || body.destroyed) source.resume();
  };
  source.on('data', (chunk: Buffer) => {
    if (body.destroyed) return;
    if (!body.write(chunk)) full.add(body);
    if (open(copy) && !copy.write(new Uint8Array(chunk))) {
      full.add(copy);
      stalled ??= setTimeout(() => copy.destroy(new Error(`the copy took nothing for ${COPY_STALL_MS} ms`)), COPY_STALL_MS);
    }
    if (full.size) source.pause();
  });
  body.on('drain', () => freed(body));
  body.on('close', () => freed(body));
  copy?.on('drain', () => freed(copy));
  copy?.on('close', () => freed(copy));
  copy?.on('error', reportedElsewhere);
  source.on('end', () => {
    body.end();
    if (open(copy)) copy.end();
  });
  source.on('error', (error) => {
    body.destroy(error);
    copy?.destroy(error);
  });
  // Closed without its end (the parser was torn down): the store must not wait for more.
  source.on('close', () => {
    if (source.readableEnded) return;
    body.destroy(new Error('The file part ended early.'));
    copy?.destroy(new Error('The file part ended early.'));
  });
  return body;
}

/** What a form may hold beside its files (the k8s Ingress allows a body of the files' budget plus these). */
export const FORM_LIMITS = { fieldNameSize: 200, fieldSize: 1024 * 1024, fields: 200, files: 100, parts: 300, headerPairs: 100 };

export function tooLarge(maxBytes: number): DetailError {
  return new DetailError(`The upload is too large: files may total at most ${maxBytes} bytes.`, 413);
}

/**
 * Streams a multipart/form-data request: every `file` part goes straight to the object store
 * (never held in memory), one after the other within a shared size budget, and the text fields
 * are collected. On any failure every object stored so far is deleted before the error is thrown.
 *
 * Every stream involved has an `error` listener from the moment it exists: when parsing stops
 * (a limit, a malformed or truncated body, a client that went away), busboy destroys the part being
 * read with an error, and an unheard `error` event would end the whole process.
 */
export function receiveMultipart(req: IncomingMessage, storage: ObjectStorage, options: ReceiveOptions): Promise<ReceivedForm> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: FORM_LIMITS,
      });
    } catch {
      reject(new DetailError('Expected a multipart/form-data body with a boundary.', 400));
      return;
    }
    const fields: Record<string, unknown> = {};
    const stored: StoredUpload[] = [];
    let used = 0;
    let failure: unknown;
    let settled = false;
    // Files are stored one at a time, so each knows how much of the budget is left.
    let chain: Promise<void> = Promise.resolve();

    const finish = async () => {
      if (settled) return;
      settled = true;
      await chain;
      if (failure === undefined) return resolve({ fields, files: stored });
      for (const file of stored) options.copies?.discard(file.key);
      await Promise.allSettled(stored.map((file) => storage.delete(file.key)));
      reject(
        failure instanceof HttpException
          ? failure
          : failure instanceof ObjectTooLargeError
            ? tooLarge(options.maxBytes)
            : new DetailError('The upload was interrupted.', 400),
      );
    };
    const fail = (error: unknown) => {
      failure ??= error;
      // Stop parsing: tearing the parser down ends the file part being stored, so its upload
      // fails and cleans up. Whatever the client still sends is drained by Node once we answered.
      req.unpipe(parser);
      if (!parser.destroyed) parser.destroy(new Error('Upload stopped'));
      req.resume();
      void finish();
    };

    parser.on('field', (name, value, info) => {
      if (failure !== undefined) return;
      if (info.nameTruncated || info.valueTruncated) return fail(new FieldValidationError({ [name]: ['This value is too long.'] }));
      // A file sent without a file name arrives as text: refused rather than silently left out.
      if (FILE_FIELDS.has(name))
        return fail(new FieldValidationError({ [name]: ['A file part needs a file name (Content-Disposition: form-data; name="file"; filename="...").'] }));
      // The JSON routes are checked by the platform before their handlers; a form is read here.
      const unstorable = unstorableTextMessage(name) ?? unstorableTextMessage(value);
      if (unstorable) return fail(new FieldValidationError({ [name]: [unstorable] }));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      stream.on('error', reportedElsewhere);
      if (failure !== undefined) return void stream.resume();
      if (!FILE_FIELDS.has(name)) {
        stream.resume();
        return fail(new FieldValidationError({ [name]: ['Files must be sent in "file" parts.'] }));
      }
      // Busboy already reduces a path to its last part, and ".", ".." to nothing.
      const named = cleanFileName(info.filename ?? '') !== '';
      const contentType = contentTypeOf(cleanFileName(info.filename ?? ''), info.mimeType);
      const fileName = storedFileName(info.filename, contentType);
      const fileId = randomUUID();
      const key = options.keyFor(fileId);
      const body = detach(stream, options.copies?.begin({ key, fileName, contentType, fields: { ...fields } }) ?? null);
      // Destroyed before its turn (parsing stopped), the body's error is the store's to report, or nobody's.
      body.on('error', reportedElsewhere);
      chain = chain.then(async () => {
        if (failure !== undefined) {
          options.copies?.discard(key);
          return void body.destroy();
        }
        try {
          await options.beforePut?.(key);
          const result = await storage.put(key, body, { contentType, maxBytes: options.maxBytes - used });
          // A form's empty file input sends a part with no name and no bytes: no file was chosen.
          if (!named && result.size === 0) {
            options.copies?.discard(key);
            return void (await storage.delete(key));
          }
          used += result.size;
          stored.push({ fileId, key, fileName, contentType, size: result.size, checksum: result.checksum });
        } catch (error) {
          options.copies?.discard(key);
          fail(error);
        }
      });
    });
    parser.on('partsLimit', () => fail(new DetailError('Too many parts in the form.', 400)));
    parser.on('filesLimit', () => fail(new DetailError('Too many files in one upload.', 400)));
    parser.on('fieldsLimit', () => fail(new DetailError('Too many fields in the form.', 400)));
    parser.on('error', () => fail(new DetailError('Malformed multipart body.', 400)));
    parser.on('close', () => void finish());
    req.on('error', (error) => fail(error));
    // The client went away before sending everything.
    req.on('close', () => {
      if (!req.complete) fail(new DetailError('The upload was interrupted.', 400));
    });
    req.pipe(parser);
  });
}
