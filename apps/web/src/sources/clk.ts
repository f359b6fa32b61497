import { hmacSha256Hex } from './hmac-sha256';

// Fuzzy hashed columns in the browser: the CLK (a keyed Bloom filter of a value's character bigrams)
// exactly as the server makes it (libs/extraction/src/clk.ts), so "Jon Smith" and "John Smith" give
// filters with a high Dice similarity while only the key holder can test a guess. Checked against
// the server's encoder in private-indexing.spec.ts.

const BITS = 1024;
const HASHES = 20;

const bytesOfHex = (hex: string) => Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));

/** (text) => the value's CLK in base64 (128 bytes), keyed by the linkage key. */
export function clkEncoder(linkageKey: Uint8Array): (text: string) => string {
  // Bigrams are hashed under a key of their own, derived from the linkage key.
  const bigramKey = bytesOfHex(hmacSha256Hex(linkageKey, 64)('data-catalogue clk key'));
  const bigramHash = hmacSha256Hex(bigramKey, 16);
  return (value) => {
    const filter = new Uint8Array(BITS / 8);
    const text = ` ${value.toLowerCase().replace(/\s+/g, ' ').trim()} `;
    for (let i = 0; i + 1 < text.length; i++) {
      const digest = bigramHash(text.slice(i, i + 2));
      const h1 = parseInt(digest.slice(0, 8), 16);
      const h2 = parseInt(digest.slice(8, 16), 16) | 1;
      for (let k = 0; k < HASHES; k++) {
        const position = ((h1 + Math.imul(k, h2)) >>> 0) % BITS;
        filter[position >>> 3] |= 1 << (position & 7);
      }
    }
    let binary = '';
    for (const byte of filter) binary += String.fromCharCode(byte);
    return btoa(binary);
  };
}
