import type { ClientType } from '@dc/platform';

export type VisibilityCode = 'PR' | 'EV' | 'CU';
export type AccessCode = 'RE' | 'OP';
/** [label, code], as the client's selects take them. */
export type OptionPair<T extends string = string> = [label: string, code: T];

export const VISIBILITY_OPTIONS: OptionPair<VisibilityCode>[] = [
  ['Private', 'PR'],
  ['Everyone', 'EV'],
  ['Custom', 'CU'],
];

/** "Request" means a request is needed; "Open" gives a download. */
export const ACCESS_OPTIONS: OptionPair<AccessCode>[] = [
  ['Request', 'RE'],
  ['Open', 'OP'],
];

export const DEFAULT_CURRENCY = 'CAD';

/** ISO 4217 codes offered for an access fee (a term shown to requestors; nothing is charged). */
export const CURRENCY_OPTIONS: OptionPair[] = [
  ['Canadian Dollar', 'CAD'],
  ['US Dollar', 'USD'],
  ['Euro', 'EUR'],
  ['British Pound', 'GBP'],
  ['Australian Dollar', 'AUD'],
  ['New Zealand Dollar', 'NZD'],
  ['Swiss Franc', 'CHF'],
  ['Japanese Yen', 'JPY'],
  ['Chinese Yuan', 'CNY'],
  ['Indian Rupee', 'INR'],
  ['Mexican Peso', 'MXN'],
  ['Brazilian Real', 'BRL'],
  ['South African Rand', 'ZAR'],
  ['Swedish Krona', 'SEK'],
  ['Norwegian Krone', 'NOK'],
  ['Danish Krone', 'DKK'],
  ['Singapore Dollar', 'SGD'],
  ['Hong Kong Dollar', 'HKD'],
];

export const CURRENCY_CODES = CURRENCY_OPTIONS.map(([, code]) => code);

/** BASIC clients' records are always visible to everyone, so EV is their only choice. */
export function visibilityOptionsFor(clientType: ClientType | null | undefined): OptionPair<VisibilityCode>[] {
  return clientType === 'BASIC' ? VISIBILITY_OPTIONS.filter(([, code]) => code === 'EV') : VISIBILITY_OPTIONS;
}

/** A record made from data shared with its maker alone stays theirs alone, whatever the plan (lineage). */
export const OWNER_ONLY_VISIBILITY_OPTIONS: OptionPair<VisibilityCode>[] = [['Only me', 'PR']];

/** The visibility choices a record offers: an owner-only record none but its own. */
export function visibilityOptionsOf(record: { ownerOnly: boolean }, ownerClientType: ClientType | null | undefined): OptionPair<VisibilityCode>[] {
  return record.ownerOnly ? OWNER_ONLY_VISIBILITY_OPTIONS : visibilityOptionsFor(ownerClientType);
}

export function accessLabel(code: AccessCode): string {
  return ACCESS_OPTIONS.find(([, value]) => value === code)![0];
}
