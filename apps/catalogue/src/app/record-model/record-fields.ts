import { z } from 'zod';
import { isUuid, withoutBidiControls } from '@dc/contracts';
import { CURRENCY_CODES, DEFAULT_CURRENCY } from './access-options';
import { type ColumnRef, type CustomField, type PrivateColumnChoices, SHARE_FORMATS, type ShareFormat } from './record';

/**
 * Field schemas shared by record creation (multipart strings or JSON) and edit (JSON). Multipart
 * sends everything as text, so booleans, numbers and lists also arrive as strings.
 */
export const MAX_NAME_LENGTH = 255;
export const MAX_TEXT_LENGTH = 10_000;
export const MAX_CUSTOM_FIELDS = 100;

/** An empty form field means "not given". */
export const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** What to extract from a file (spec section 4): 'metadata' when not given or blank. */
export const extractOptionField = z
  .preprocess(blankToUndefined, z.enum(['minimal', 'metadata', 'samples'], { error: 'Select minimal, metadata or samples.' }).optional())
  .transform((v) => v ?? 'metadata');

export const booleanField = (message: string) =>
  z.union([z.boolean(), z.string()]).transform((value, ctx) => {
    if (typeof value === 'boolean') return value;
    const normalised = value.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(normalised)) return true;
    if (['false', '0', 'no'].includes(normalised)) return false;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

export const nameField = withoutBidiControls(
  z
    .string({ error: 'Not a valid string.' })
    .trim()
    .min(1, 'This field may not be blank.')
    .max(MAX_NAME_LENGTH, `Ensure this field has no more than ${MAX_NAME_LENGTH} characters.`),
);
export const textField = z
  .string({ error: 'Not a valid string.' })
  .trim()
  .max(MAX_TEXT_LENGTH, `Ensure this field has no more than ${MAX_TEXT_LENGTH} characters.`);

export const sourceField = z
  .string({ error: 'Not a valid string.' })
  .trim()
  .max(2048, 'Ensure this field has no more than 2048 characters.')
  .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), 'Enter a valid URL.');

export const accessField = z
  .string({ error: 'Not a valid choice.' })
  .transform((value) => ({ request: 'RE', open: 'OP' })[value.trim().toLowerCase()] ?? value.trim().toUpperCase())
  .pipe(z.enum(['RE', 'OP'], { error: '"Access" must be RE (Request) or OP (Open).' }));

export const accessFeeField = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) {
    ctx.addIssue({ code: 'custom', message: 'Enter a non-negative amount with at most 2 decimal places.' });
    return z.NEVER;
  }
  return Number(text);
});

export const currencyField = z
  .string({ error: 'Not a valid choice.' })
  .transform((value) => value.trim().toUpperCase())
  .refine((value) => CURRENCY_CODES.includes(value), { message: `Select a currency among ${CURRENCY_CODES.join(', ')}.` });

export const DEFAULT_ACCESS_CURRENCY = DEFAULT_CURRENCY;

/** A policy id, or null (no policy); '' and "null" clear it. */
export const policyField = z
  .union([z.string(), z.null()])
  .transform((value) => (value === null || value.trim() === '' || value.trim().toLowerCase() === 'null' ? null : value.trim().toLowerCase()))
  .refine((value) => value === null || isUuid(value), 'Not a valid policy id.');

/** JSON text from a form, or the value itself from a JSON body. */
const jsonText = (message: string) => (value: unknown, ctx: z.RefinementCtx) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  }
};

const customValue = z.union([z.string(), z.number(), z.boolean(), z.null()]).transform((v) => (v === null ? '' : String(v)));

/** Custom label/value pairs: a list of {label, value}, or a {label: value} object (the spec's RECORD). */
export const customFieldsField = z
  .unknown()
  .transform(jsonText('Custom fields must be a JSON list of {"label", "value"} pairs.'))
  .pipe(
    z.union(
      [
        z.array(z.object({ label: z.string().trim().min(1, 'A label may not be blank.').max(MAX_NAME_LENGTH), value: customValue.optional().default('') })),
        z
          .record(z.string().trim().min(1).max(MAX_NAME_LENGTH), customValue)
          .transform((map) => Object.entries(map).map(([label, value]) => ({ label, value }))),
      ],
      { error: 'Custom fields must be a JSON list of {"label", "value"} pairs.' },
    ),
  )
  .refine((fields) => fields.length <= MAX_CUSTOM_FIELDS, `At most ${MAX_CUSTOM_FIELDS} custom fields.`)
  .refine((fields) => fields.every((f) => f.value.length <= MAX_TEXT_LENGTH), `A value may have at most ${MAX_TEXT_LENGTH} characters.`)
  .transform((fields): CustomField[] => fields.map(({ label, value }) => ({ label, value })));

export const groupsField = z
  .unknown()
  .transform(jsonText('Groups must be a list of group ids.'))
  .pipe(z.array(z.union([z.string(), z.object({ id: z.string() }).transform((g) => g.id)]), { error: 'Groups must be a list of group ids.' }))
  .refine((ids) => ids.every(isUuid), 'Groups must be a list of group ids.')
  .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]);

/** A file has at most this many columns described (libs/extraction maxColumns). */
export const MAX_PRIVATE_COLUMNS = 500;

const COLUMN_LIST = 'Must be a JSON list of column positions (0, 1, ...) or header names, e.g. [0, "Email"].';
const FORMAT_LIST =
  'Must be a JSON list of {"column": position or header name, "format": "exclude", "mask" or "plain"}, or a JSON object of header name to format.';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isColumnRef = (value: unknown): value is ColumnRef =>
  (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 100_000) ||
  (typeof value === 'string' && value.trim() !== '' && value.length <= MAX_NAME_LENGTH);
/** Positions and names are different picks; names match ignoring case. */
export const columnKey = (ref: ColumnRef) => (typeof ref === 'number' ? `#${ref}` : `=${ref.toLowerCase()}`);
export const columnLabel = (ref: ColumnRef) => (typeof ref === 'number' ? `Column ${ref}` : `Column "${ref}"`);
const cleanRef = (ref: ColumnRef): ColumnRef => (typeof ref === 'string' ? ref.trim() : ref);

/** summaryList and encryptList: a JSON list of column positions (numbers, from 0) or header names (strings). */
export const columnListField = z
  .unknown()
  .transform(jsonText(COLUMN_LIST))
  .transform((value, ctx): ColumnRef[] => {
    if (!Array.isArray(value) || !value.every(isColumnRef)) {
      ctx.addIssue({ code: 'custom', message: COLUMN_LIST });
      return z.NEVER;
    }
    if (value.length > MAX_PRIVATE_COLUMNS) {
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_PRIVATE_COLUMNS} columns.` });
      return z.NEVER;
    }
    const seen = new Map<string, ColumnRef>();
    for (const ref of value.map(cleanRef)) if (!seen.has(columnKey(ref))) seen.set(columnKey(ref), ref);
    return [...seen.values()];
  });

/**
 * formatList: each column's share format (spec: exclude, mask or plain). A JSON list of
 * {"column", "format"} (column: a position or a header name), or a JSON object of header name to
 * format. Columns not listed are plain.
 */
export const formatListField = z
  .unknown()
  .transform(jsonText(FORMAT_LIST))
  .transform((value, ctx): PrivateColumnChoices['formats'] => {
    const entries: unknown[] | null = Array.isArray(value)
      ? value
      : isObject(value)
        ? Object.entries(value).map(([column, format]) => ({ column, format }))
        : null;
    if (!entries || !entries.every((e) => isObject(e) && isColumnRef(e.column)) || entries.length > MAX_PRIVATE_COLUMNS) {
      ctx.addIssue({ code: 'custom', message: entries && entries.length > MAX_PRIVATE_COLUMNS ? `At most ${MAX_PRIVATE_COLUMNS} columns.` : FORMAT_LIST });
      return z.NEVER;
    }
    const formats = new Map<string, { column: ColumnRef; format: ShareFormat }>();
    for (const entry of entries as Array<{ column: ColumnRef; format: unknown }>) {
      const column = cleanRef(entry.column);
      const format = typeof entry.format === 'string' ? entry.format.trim().toLowerCase() : entry.format;
      if (!SHARE_FORMATS.includes(format as ShareFormat)) {
        ctx.addIssue({ code: 'custom', message: `${columnLabel(column)}: the format must be exclude, mask or plain.` });
        continue;
      }
      const earlier = formats.get(columnKey(column));
      if (earlier && earlier.format !== format)
        ctx.addIssue({ code: 'custom', message: `${columnLabel(column)} has two formats (${earlier.format} and ${String(format)}).` });
      formats.set(columnKey(column), { column, format: format as ShareFormat });
    }
    return [...formats.values()];
  });
