import { connect } from 'node:net';

/** Requests as a hostile client sends them: framing, lengths and disconnects under the test's control. */

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawRequestOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent in this order; a function is called between chunks (e.g. to wait). */
  body?: Array<Buffer | string>;
  /** Do not set Content-Length from the body (the headers carry a lie, or nothing). */
  rawLength?: boolean;
  /** After sending: 'wait' for the answer (default), 'destroy' the socket at once (a client that goes away). */
  then?: 'wait' | 'destroy';
  timeoutMs?: number;
}

/** Sends one HTTP/1.1 request over a fresh socket; resolves with the answer, or null when the socket closed without one. */
export function rawRequest(port: number, options: RawRequestOptions): Promise<RawAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (answer: RawAnswer | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => {
      settled = true;
      socket.destroy();
      reject(new Error(`no answer to ${options.method ?? 'POST'} ${options.path} within ${options.timeoutMs ?? 60_000} ms`));
    }, options.timeoutMs ?? 60_000);
    socket.on('error', () => settle(parse(Buffer.concat(chunks))));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = parse(Buffer.concat(chunks));
      if (answer && isComplete(answer, Buffer.concat(chunks))) settle(answer);
    });
    socket.on('close', () => settle(parse(Buffer.concat(chunks))));
    socket.on('connect', () => {
      const body = (options.body ?? []).map((part) => (typeof part === 'string' ? Buffer.from(part) : part));
      const headers: Record<string, string> = { host: `127.0.0.1:${port}`, connection: 'close', ...options.headers };
      if (!options.rawLength && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
        headers['content-length'] = String(body.reduce((sum, b) => sum + b.length, 0));
      }
      const head = `${options.method ?? 'POST'} ${options.path} HTTP/1.1\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n')}\r\n\r\n`;
      socket.write(head);
      // The server may answer (and stop reading) before everything is sent: that is fine.
      for (const part of body) if (!socket.destroyed) socket.write(part);
      if (options.then === 'destroy') {
        // Let the bytes leave, then vanish without a FIN-and-wait.
        setTimeout(() => {
          socket.resetAndDestroy();
          settle(null);
        }, 50);
      }
    });
  });
}

function parse(bytes: Buffer): RawAnswer | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
  if (!status) return null;
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status, headers, body: bytes.subarray(end + 4).toString('utf8') };
}

function isComplete(answer: RawAnswer, bytes: Buffer): boolean {
  const length = Number(answer.headers['content-length']);
  if (!Number.isFinite(length)) return false;
  return bytes.length - (bytes.indexOf('\r\n\r\n') + 4) >= length;
}

export interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
}

/** A multipart/form-data body; `close: false` leaves out the closing boundary. */
export function multipart(parts: Part[], boundary = 'xXhostileXx', close = true): { contentType: string; body: Buffer } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`));
    chunks.push(typeof part.data === 'string' ? Buffer.from(part.data) : part.data);
    chunks.push(Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

/** Ways to write /internal/token-status that a router might still match (case, slashes, dots, escapes). */
export const INTERNAL_PATH_VARIANTS = [
  '/internal/token-status',
  '/internal/token-status/',
  '/internal/token-status?x=1',
  '/INTERNAL/token-status',
  '/Internal/Token-Status',
  '//internal/token-status',
  '/internal//token-status',
  '/./internal/token-status',
  '/api/../internal/token-status',
  '/health/../internal/token-status',
  '/api/account/../../internal/token-status',
  '/%69nternal/token-status',
  '/internal%2Ftoken-status',
  '/internal/token-status;x',
];
