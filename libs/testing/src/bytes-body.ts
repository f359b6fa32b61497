import type { Test } from 'supertest';

/** The request with its response body read as raw bytes (`body` a Buffer), whatever its content type: downloads. */
export function withBytesBody(test: Test): Test {
  return test.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}
