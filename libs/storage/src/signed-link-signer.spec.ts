import { InvalidSignedLinkError } from './errors';
import { attachmentContentDisposition, SignedLinkSigner, verifySignedDownloadToken } from './signed-link-signer';

const SECRET = 'a-long-enough-test-secret-value';

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidSignedLinkError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('SignedLinkSigner', () => {
  let now = Date.UTC(2024, 0, 1);
  const signer = new SignedLinkSigner(SECRET, { now: () => now });

  beforeEach(() => {
    now = Date.UTC(2024, 0, 1);
  });

  it('verifies its own tokens back to key, file name and expiry', () => {
    const token = signer.sign('records/1/a b.csv', { expiresInSeconds: 60, fileName: 'a b.csv' });
    expect(signer.verify(token)).toEqual({ key: 'records/1/a b.csv', fileName: 'a b.csv', expiresAt: new Date(now + 60_000) });
    expect(verifySignedDownloadToken(token, SECRET, { now: () => now })).toMatchObject({ key: 'records/1/a b.csv' });
  });

  it('accepts a token until its expiry and rejects it from then on', () => {
    const token = signer.sign('k', { expiresInSeconds: 60 });
    now += 59_999;
    expect(signer.verify(token).key).toBe('k');
    now += 1;
    expect(reasonOf(() => signer.verify(token))).toBe('expired');
  });

  it('rejects tokens signed with another secret', () => {
    const other = new SignedLinkSigner('another-secret-of-enough-length', { now: () => now });
    expect(reasonOf(() => signer.verify(other.sign('k', { expiresInSeconds: 60 })))).toBe('bad-signature');
  });

  it('rejects a token whose payload was swapped for another key or a later expiry', () => {
    const [version, , signature] = signer.sign('mine', { expiresInSeconds: 60 }).split('.');
    const forged = Buffer.from(JSON.stringify({ k: 'theirs', e: now + 10 ** 9 })).toString('base64url');
    expect(reasonOf(() => signer.verify(`${version}.${forged}.${signature}`))).toBe('bad-signature');
  });

  it('rejects every single-character change to the signature, padding bits included', () => {
    const token = signer.sign('k', { expiresInSeconds: 60 });
    const signatureStart = token.lastIndexOf('.') + 1;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const position of [signatureStart, token.length - 1]) {
      for (const replacement of alphabet) {
        if (replacement === token[position]) continue;
        const tampered = token.slice(0, position) + replacement + token.slice(position + 1);
        expect(reasonOf(() => signer.verify(tampered))).toBe('bad-signature');
      }
    }
  });

  it.each(['', 'garbage', 'v1.only-two', 'v2.a.b', 'v1.a.b.c'])('rejects the malformed token %j', (token) => {
    expect(reasonOf(() => signer.verify(token))).toMatch(/malformed|bad-signature/);
  });

  it('refuses short secrets and invalid keys or expiries', () => {
    expect(() => new SignedLinkSigner('short')).toThrow(RangeError);
    expect(() => signer.sign('../x', { expiresInSeconds: 60 })).toThrow(/Invalid object key/);
    expect(() => signer.sign('x', { expiresInSeconds: -1 })).toThrow(RangeError);
    expect(() => signer.sign('x', { expiresInSeconds: 1.5 })).toThrow(RangeError);
  });
});

describe('attachmentContentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentContentDisposition('Rapor – 2024.csv')).toBe(`attachment; filename="Rapor _ 2024.csv"; filename*=UTF-8''Rapor%20%E2%80%93%202024.csv`);
  });

  it('cannot be used to inject header content', () => {
    const value = attachmentContentDisposition('a"b\\c\r\nSet-Cookie: x=1/../d.txt');
    expect(value).not.toMatch(/[\r\n]/);
    expect(value.startsWith('attachment; filename="a_b_c__Set-Cookie: x=1_.._d.txt";')).toBe(true);
  });
});
