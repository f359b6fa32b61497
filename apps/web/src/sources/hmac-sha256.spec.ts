import { describe, expect, it } from '@jest/globals';
import { createHmac, randomBytes } from 'node:crypto';
import { hmacSha256Hex } from './hmac-sha256';

describe('HMAC-SHA-256 keyed once', () => {
  it('equals node:crypto for every length across block boundaries, for Unicode text, and for several keys', () => {
    for (const key of [Buffer.alloc(32, 42), randomBytes(32), randomBytes(16), randomBytes(64)]) {
      const hash = hmacSha256Hex(new Uint8Array(key));
      const values = [
        ...Array.from({ length: 200 }, (_, n) => 'x'.repeat(n)),
        'Zürich ü',
        '😀 emoji',
        'AFG',
        'Saint Paul, Minnesota',
        'é'.repeat(100),
        randomBytes(500).toString('base64'),
      ];
      for (const value of values) expect(hash(value)).toBe(createHmac('sha256', key).update(value, 'utf8').digest('hex'));
    }
    expect(hmacSha256Hex(new Uint8Array(32), 32)('AFG')).toBe(createHmac('sha256', Buffer.alloc(32)).update('AFG').digest('hex').slice(0, 32));
  });
});
