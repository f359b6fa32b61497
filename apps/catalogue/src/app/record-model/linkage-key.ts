import type { SecretCipher } from '@dc/platform';

// A linkage key sent with an upload is needed until the background extraction hashed the record's
// files; in between it is stored sealed to the record, and erased once extraction is over
// (ExtractionRepository.complete). docs/private-linkage.md says why the product keeps no keys.

const context = (recordId: string) => `linkage-key:${recordId}`;

export function sealLinkageKey(cipher: SecretCipher, recordId: string, key: Uint8Array): string {
  return cipher.encrypt(Buffer.from(key).toString('base64url'), context(recordId));
}

export function unsealLinkageKey(cipher: SecretCipher, recordId: string, sealed: string): Uint8Array {
  return new Uint8Array(Buffer.from(cipher.decrypt(sealed, context(recordId)), 'base64url'));
}
