import { z } from 'zod';
import { isUuid } from '@dc/contracts';
import { blankToUndefined, booleanField, extractOptionField } from '../../record-model/record-fields';
import { checkPrivateColumns, privateColumnFields } from '../../record-model/private-columns';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/** Spec section 9: sync modes; the selector is disabled, so only once applies. */
export const SYNC_MODES = ['once', 'hourly', 'daily', 'weekly'] as const;

const bucketName = z
  .string({ error: 'Not a valid bucket name.' })
  .trim()
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'Not a valid bucket name.');
const objectKey = z
  .string({ error: 'Not a valid object name.' })
  .min(1, 'This field may not be blank.')
  .max(1024, 'Ensure this field has no more than 1024 characters.');
/** One value, several (a query string's repeated parameter) or a JSON list. */
const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => {
    if (typeof value === 'string' && value.trim().startsWith('[')) {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    }
    return value === undefined || Array.isArray(value) ? value : [value];
  }, z.array(item).max(100, 'At most 100 at a time.').optional());

const endpointField = z
  .string({ error: 'Enter a valid URL.' })
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        !url.username &&
        !url.password &&
        (url.pathname === '/' || url.pathname === '') &&
        !url.search
      );
    } catch {
      return false;
    }
  }, 'Enter the endpoint as http(s)://host[:port], without a path or credentials.')
  .transform((value) => new URL(value).origin);

/**
 * The parameters of every /api/connect-aws/ call (spec section 7), from the query string or a JSON
 * body: a saved account (accountId) or AwsAccessKeyId and AwsSecretAccessKey (with an S3-compatible
 * endpoint and region when not AWS), bucket(s), object(s), sync and saveAccount; for indexing, the
 * extract option and the private-column choices of uploads.
 */
export const cloudSchema = z
  .object(
    {
      accountId: optional(z.string().refine(isUuid, 'Not a valid account id.')),
      AwsAccessKeyId: optional(z.string({ error: 'Not a valid string.' }).trim().min(1).max(128, 'Ensure this field has no more than 128 characters.')),
      AwsSecretAccessKey: optional(z.string({ error: 'Not a valid string.' }).min(1).max(256, 'Ensure this field has no more than 256 characters.')),
      endpoint: optional(endpointField).transform((v) => v ?? ''),
      region: optional(
        z
          .string()
          .trim()
          .regex(/^[a-z0-9-]{2,32}$/, 'Not a valid region.'),
      ).transform((v) => v ?? 'us-east-1'),
      saveAccount: optional(booleanField('Must be "true" or "false".')).transform((v) => v ?? false),
      bucket: listOf(bucketName),
      buckets: listOf(bucketName),
      object: listOf(objectKey),
      objects: listOf(objectKey),
      sync: optional(z.enum(SYNC_MODES, { error: 'Select once, hourly, daily or weekly.' })).transform((v) => v ?? 'once'),
      extractOption: extractOptionField,
      ...privateColumnFields,
    },
    { error: 'Expected a JSON object.' },
  )
  .superRefine((dto, ctx) => {
    if (!dto.accountId && !(dto.AwsAccessKeyId && dto.AwsSecretAccessKey)) {
      ctx.addIssue({ code: 'custom', path: ['non_field_errors'], message: 'Choose a saved account, or give AwsAccessKeyId and AwsSecretAccessKey.' });
    }
    if (dto.sync !== 'once') ctx.addIssue({ code: 'custom', path: ['sync'], message: 'Only "once" is available: scheduled sync is not offered yet.' });
    checkPrivateColumns(dto, ctx);
  })
  .transform(({ bucket, buckets, object, objects, ...dto }) => ({
    ...dto,
    buckets: [...new Set([...(bucket ?? []), ...(buckets ?? [])])],
    objects: [...new Set([...(object ?? []), ...(objects ?? [])])],
  }));
export type CloudDto = z.output<typeof cloudSchema>;
