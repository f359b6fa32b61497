import { describe, expect, it } from '@jest/globals';
import { createHash, createHmac } from 'node:crypto';
import { clkEncoder as serverClk } from '@dc/extraction';
import { clkEncoder } from './clk';
import { generateLinkageKey, keyedHasher, linkageKeyId, parseLinkageKey } from './linkage-key';
import { choicesToFields } from './private-columns';
import { maskOf, rowTransform } from './private-indexing';

const KEY = Buffer.alloc(32, 42);
const KEY_TEXT = KEY.toString('base64url');

describe('linkage key and keyed hashing in the browser', () => {
  it('hashes as the server does: HMAC-SHA-256 of the UTF-8 text, 32 hex characters', () => {
    const hash = keyedHasher(parseLinkageKey(KEY_TEXT)!);
    for (const value of ['AFG', 'Saint Paul, Minnesota', 'Zürich ü', '', '😀 emoji', 'x'.repeat(200)]) {
      expect(hash(value)).toBe(createHmac('sha256', KEY).update(value, 'utf8').digest('hex').slice(0, 32));
    }
  });

  it('names the key as the server does, and reads only well-formed keys', () => {
    expect(linkageKeyId(parseLinkageKey(KEY_TEXT)!)).toBe(
      createHash('sha256').update('data-catalogue linkage key id\n').update(KEY).digest('hex').slice(0, 16),
    );
    expect(parseLinkageKey(`  ${KEY_TEXT} `)).toEqual(new Uint8Array(KEY));
    for (const bad of ['', 'short', `${KEY_TEXT}A`, KEY.toString('base64')]) expect(parseLinkageKey(bad)).toBeNull();
    const fresh = generateLinkageKey();
    expect(parseLinkageKey(fresh)).toHaveLength(32);
    expect(fresh).not.toBe(generateLinkageKey());
  });
});

describe('the rows private indexing sends', () => {
  const hash = keyedHasher(new Uint8Array(KEY));
  const transform = rowTransform(
    [
      { hash: true, format: 'plain' },
      { hash: false, format: 'mask' },
      { hash: false, format: 'exclude' },
      { hash: false, format: 'plain' },
    ],
    hash,
  );

  it('hashes, masks, leaves out and keeps columns; missing values stay missing', () => {
    expect(transform.header(['Code', 'Name', 'Secret', 'Value'])).toEqual(['Code', 'Name', 'Value']);
    expect(transform.row([' AFG ', 'Afghanistan 2', 'x', '3.5'])).toEqual([hash('AFG'), 'Xxxxxxxxxxx 9', '3.5']);
    expect(transform.row(['', 'NA', 'x', ''])).toEqual(['', 'NA', '']);
    expect(transform.row(['n/a'])).toEqual(['n/a', '', '']);
    expect(maskOf('Ab-9é')).toBe('Xx-9x');
  });

  it('gives the API the hashed columns and the formats by header name', () => {
    expect(
      choicesToFields(
        ['Code', 'Name', 'Secret', 'Value'],
        [
          { hash: true, format: 'plain' },
          { hash: false, format: 'mask' },
          { hash: true, format: 'exclude' },
          { hash: false, format: 'plain' },
        ],
      ),
    ).toEqual({
      hashed: ['Code'],
      fuzzy: [],
      formatList: [
        { column: 'Name', format: 'mask' },
        { column: 'Secret', format: 'exclude' },
      ],
    });
  });

  it('hashes fuzzy columns as CLKs, exactly as the server does, and lists them in fuzzyList', () => {
    const clk = clkEncoder(new Uint8Array(KEY));
    const server = serverClk(new Uint8Array(KEY));
    for (const value of ['Jon Smith', 'John  SMITH', 'Zürich ü', 'x', '😀 emoji', 'Saint Paul, Minnesota']) expect(clk(value)).toBe(server(value));
    const fuzzy = rowTransform(
      [
        { hash: true, fuzzy: true, format: 'plain' },
        { hash: true, format: 'plain' },
      ],
      hash,
      clk,
    );
    expect(fuzzy.row([' Jon Smith ', 'AFG'])).toEqual([server('Jon Smith'), hash('AFG')]);
    expect(fuzzy.row(['NA', ''])).toEqual(['NA', '']);
    expect(
      choicesToFields(
        ['Name', 'Code', 'Other'],
        [
          { hash: true, fuzzy: true, format: 'plain' },
          { hash: true, format: 'plain' },
          { hash: false, fuzzy: true, format: 'plain' },
        ],
      ),
    ).toEqual({ hashed: ['Name', 'Code'], fuzzy: ['Name'], formatList: [] });
  });
});
