import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { DetailError, FieldValidationError } from '@dc/platform';

/** An uploaded catalogue, held in memory (it is at most HARVEST_MAX_BYTES). */
export interface UploadedCatalogue {
  text: string;
  fileName: string;
  contentType: string;
  fields: Record<string, string>;
}

const tooLarge = (maxBytes: number) =>
  new FieldValidationError({ file: [`The catalogue is larger than ${maxBytes} bytes, the most an import reads (HARVEST_MAX_BYTES).`] });

/** Reads a multipart/form-data body with one `file` part (and text fields), refusing more than maxBytes. */
export function receiveCatalogue(req: IncomingMessage, maxBytes: number): Promise<UploadedCatalogue> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fileSize: maxBytes, fields: 20, fieldSize: 64 * 1024 } });
    } catch {
      reject(new DetailError('Expected a multipart/form-data body with a boundary.', 400));
      return;
    }
    const fields: Record<string, string> = {};
    let file: UploadedCatalogue | undefined;
    let failure: Error | undefined;
    const fail = (error: Error) => {
      failure ??= error;
      req.unpipe(parser);
      req.resume();
      reject(failure);
    };
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      stream.on('error', () => undefined);
      if (name !== 'file') return void stream.resume();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      stream.on('end', () => {
        if (failure) return;
        file = { text: Buffer.concat(chunks).toString('utf8'), fileName: info.filename ?? 'catalogue', contentType: info.mimeType ?? '', fields };
      });
    });
    parser.on('error', () => fail(new DetailError('The upload was interrupted.', 400)));
    parser.on('close', () => {
      if (failure) return;
      // A form may give the address instead of the file.
      if (!file && fields.url?.trim()) return resolve({ text: '', fileName: '', contentType: '', fields });
      if (!file) return reject(new FieldValidationError({ file: ['Send the catalogue as the "file" part, or its address as "url".'] }));
      resolve({ ...file, fields });
    });
    req.pipe(parser);
  });
}
