// HMAC-SHA-256 for many short values under one key (private indexing hashes every cell of a column):
// the key's inner and outer states are computed once, each value then costs its own blocks plus one
// outer block, with no allocation per value. Verified against node:crypto in hmac-sha256.spec.ts.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const IV = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** One SHA-256 block of `bytes` at `offset` into `state`. */
function compress(state: Uint32Array, bytes: Uint8Array, offset: number, w: Uint32Array): void {
  for (let t = 0; t < 16; t++) {
    const i = offset + t * 4;
    w[t] = (bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3];
  }
  for (let t = 16; t < 64; t++) {
    const a = w[t - 15];
    const b = w[t - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
  }
  let a = state[0],
    b = state[1],
    c = state[2],
    d = state[3],
    e = state[4],
    f = state[5],
    g = state[6],
    h = state[7];
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}

/** The keyed state after one block of the key XOR `pad`. */
function keyedState(key: Uint8Array, pad: number, w: Uint32Array): Uint32Array {
  const block = new Uint8Array(64).fill(pad);
  for (let i = 0; i < key.length; i++) block[i] = key[i] ^ pad;
  const state = IV.slice();
  compress(state, block, 0, w);
  return state;
}

/**
 * (text) => the first `hexChars` hex characters of HMAC-SHA-256(key, UTF-8 of text). Keys up to
 * 64 bytes (linkage keys have 32).
 */
export function hmacSha256Hex(key: Uint8Array, hexChars = 64): (text: string) => string {
  if (key.length > 64) throw new Error('keys longer than 64 bytes are not supported');
  const w = new Uint32Array(64);
  const inner = keyedState(key, 0x36, w);
  const outer = keyedState(key, 0x5c, w);
  const state = new Uint32Array(8);
  const encoder = new TextEncoder();
  let buffer = new Uint8Array(256);
  const outerBlock = new Uint8Array(64);
  outerBlock[32] = 0x80;
  outerBlock[62] = 0x03; // 96 bytes (the key block and the inner digest) = 768 bits
  const bytesOut = Math.ceil(hexChars / 2);
  return (text) => {
    if (buffer.length < text.length * 3 + 72) buffer = new Uint8Array(text.length * 3 + 72);
    const length = encoder.encodeInto(text, buffer).written;
    // Padding: 0x80, zeros, then the bit length of key block + message as 64 bits.
    const padded = Math.ceil((length + 9) / 64) * 64;
    buffer[length] = 0x80;
    buffer.fill(0, length + 1, padded);
    const bits = (64 + length) * 8;
    buffer[padded - 4] = bits >>> 24;
    buffer[padded - 3] = bits >>> 16;
    buffer[padded - 2] = bits >>> 8;
    buffer[padded - 1] = bits;
    buffer[padded - 5] = Math.floor(bits / 2 ** 32);
    state.set(inner);
    for (let offset = 0; offset < padded; offset += 64) compress(state, buffer, offset, w);
    for (let i = 0; i < 8; i++) {
      outerBlock[i * 4] = state[i] >>> 24;
      outerBlock[i * 4 + 1] = state[i] >>> 16;
      outerBlock[i * 4 + 2] = state[i] >>> 8;
      outerBlock[i * 4 + 3] = state[i];
    }
    state.set(outer);
    compress(state, outerBlock, 0, w);
    let hex = '';
    for (let i = 0; i < bytesOut; i++) hex += HEX[(state[i >> 2] >>> (24 - (i & 3) * 8)) & 0xff];
    return hex.slice(0, hexChars);
  };
}

/** SHA-256 of bytes, as hex. */
export function sha256Hex(bytes: Uint8Array): string {
  const w = new Uint32Array(64);
  const padded = Math.ceil((bytes.length + 9) / 64) * 64;
  const buffer = new Uint8Array(padded);
  buffer.set(bytes);
  buffer[bytes.length] = 0x80;
  const bits = bytes.length * 8;
  buffer[padded - 4] = bits >>> 24;
  buffer[padded - 3] = bits >>> 16;
  buffer[padded - 2] = bits >>> 8;
  buffer[padded - 1] = bits;
  buffer[padded - 5] = Math.floor(bits / 2 ** 32);
  const state = IV.slice();
  for (let offset = 0; offset < padded; offset += 64) compress(state, buffer, offset, w);
  let hex = '';
  for (let i = 0; i < 32; i++) hex += HEX[(state[i >> 2] >>> (24 - (i & 3) * 8)) & 0xff];
  return hex;
}
