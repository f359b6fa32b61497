import { randomBytes } from 'node:crypto';
import { SecretCipher } from './secret-cipher';

describe('SecretCipher (AES-256-GCM)', () => {
  const cipher = new SecretCipher(randomBytes(32));

  it('reads back what it sealed, with a fresh IV each time', () => {
    const first = cipher.encrypt('s3cret value', 'user-1');
    const second = cipher.encrypt('s3cret value', 'user-1');
    expect(first).not.toBe(second);
    expect(first).not.toContain('s3cret');
    expect(cipher.decrypt(first, 'user-1')).toBe('s3cret value');
  });

  it('refuses another context, another key and any tampering', () => {
    const sealed = cipher.encrypt('s3cret value', 'user-1');
    expect(() => cipher.decrypt(sealed, 'user-2')).toThrow();
    expect(() => new SecretCipher(randomBytes(32)).decrypt(sealed, 'user-1')).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(() => cipher.decrypt(`v1.${raw.toString('base64url')}`, 'user-1')).toThrow();
    expect(() => cipher.decrypt('v0.abc', 'user-1')).toThrow('Unknown secret format');
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretCipher(randomBytes(16))).toThrow('32-byte');
    expect(() => SecretCipher.fromBase64Key(undefined)).toThrow('ENCRYPTION_KEY');
  });
});
