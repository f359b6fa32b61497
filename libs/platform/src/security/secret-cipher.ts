import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets that must be read back (API secrets, database passwords, cloud keys). The context (the owner's id) is
 * bound as additional data, so a ciphertext copied to another row does not decrypt.
 * Stored form: `v1.<base64url(iv | tag | ciphertext)>`.
 */
export class SecretCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretCipher needs a 32-byte key (ENCRYPTION_KEY, base64)');
  }

  static fromBase64Key(key: string | undefined): SecretCipher {
    if (!key) throw new Error('ENCRYPTION_KEY is not set: stored API secrets and credentials are encrypted with it');
    return new SecretCipher(Buffer.from(key, 'base64'));
  }

  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
  }

  /** Throws when the value was tampered with, belongs to another context or another key. */
  decrypt(sealed: string, context: string): string {
    const [version, body] = sealed.split('.');
    if (version !== VERSION || !body) throw new Error('Unknown secret format');
    const raw = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
