import { createHash } from 'node:crypto';

/**
 * A UUID that is always the same for the same inputs (sha256 shaped as a version 8 UUID): a job
 * re-run after a crash names the same result record and publishes the same event ids, so the
 * consumers' processed-events tables drop a repeat.
 */
export function derivedUuid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
