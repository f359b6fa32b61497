import type { AppConfig } from '@dc/platform';
import type { MergeLimitExceeded, MergeLimits } from './merge-engine';

export type MergeLimitSettings = Pick<AppConfig, 'MERGE_MAX_ROWS' | 'MERGE_MAX_BYTES' | 'DERIVED_STORAGE_QUOTA_BYTES'>;

/** What one merge of an owner may produce, and why. */
export interface MergeBounds {
  limits: MergeLimits;
  quotaBytes: number;
  usedBytes: number;
  /** What is left of the quota, not MERGE_MAX_BYTES, bounds the bytes. */
  byQuota: boolean;
}

/** The configured limits, the bytes bounded also by what the owner's merged records leave of the quota. */
export function mergeBounds(settings: MergeLimitSettings, usedBytes: number): MergeBounds {
  const left = Math.max(0, settings.DERIVED_STORAGE_QUOTA_BYTES - usedBytes);
  return {
    limits: { maxRows: settings.MERGE_MAX_ROWS, maxBytes: Math.min(settings.MERGE_MAX_BYTES, left) },
    quotaBytes: settings.DERIVED_STORAGE_QUOTA_BYTES,
    usedBytes,
    byQuota: left < settings.MERGE_MAX_BYTES,
  };
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const count = (n: number) => n.toLocaleString('en');
/** `256 MiB (268,435,456 bytes)`: readable, and exact for the operator. */
export function bytesText(bytes: number): string {
  if (bytes < MIB) return `${count(bytes)} bytes`;
  const [unit, name] = bytes < GIB ? [MIB, 'MiB'] : [GIB, 'GiB'];
  return `${(bytes / unit).toFixed(bytes % unit === 0 ? 0 : 1)} ${name} (${count(bytes)} bytes)`;
}

const SMALLER =
  'A value repeated on both sides multiplies rows: merge on columns whose values are unique in at least one of the records, or merge smaller parts of them.';

export const rowsLimitMessage = (maxRows: number) =>
  `The merge was stopped: its result would have more than ${count(maxRows)} rows, the most a merge may make (MERGE_MAX_ROWS). ${SMALLER}`;

export const bytesLimitMessage = (maxBytes: number) =>
  `The merge was stopped: its result would be larger than ${bytesText(maxBytes)}, the most a merge may make (MERGE_MAX_BYTES). ${SMALLER}`;

export const quotaMessage = (quotaBytes: number, usedBytes: number) =>
  `The merge was stopped: its result would take your merged records past your storage quota of ${bytesText(quotaBytes)} ` +
  `(DERIVED_STORAGE_QUOTA_BYTES); they take ${bytesText(usedBytes)} now. Delete merged records you no longer need, then merge again.`;

/** What the Jobs page says about a merge its limits stopped. */
export function stopMessage(stopped: MergeLimitExceeded, bounds: MergeBounds): string {
  if (stopped.limit === 'maxRows') return rowsLimitMessage(bounds.limits.maxRows);
  return bounds.byQuota ? quotaMessage(bounds.quotaBytes, bounds.usedBytes) : bytesLimitMessage(bounds.limits.maxBytes);
}
