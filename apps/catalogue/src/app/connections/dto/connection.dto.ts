import { z } from 'zod';
import { isUuid, withoutBidiControls } from '@dc/contracts';
import { blankToUndefined, extractOptionField, nameField, textField } from '../../record-model/record-fields';
import { checkPrivateColumns, privateColumnFields } from '../../record-model/private-columns';
import { SQL_TYPES } from '../sql-database';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
const required = 'This field is required.';

/** Spec section 9: the default database port. */
export const DEFAULT_DB_PORT = 5432;

const hostField = z
  .string({ error: required })
  .trim()
  .min(1, 'This field may not be blank.')
  .max(253, 'Ensure this field has no more than 253 characters.')
  .regex(/^(\[[0-9a-f:.]+\]|[a-z0-9._:-]+)$/i, 'Enter a host name or an IP address.');

/** A port as a number or as the form's text (documented as both: the web form sends text). */
const portNumber = z.union([z.number(), z.string()], { error: 'A valid integer is required.' });

/** The new-connection form (spec section 2): database type, host, database name, username, password, port. */
export const connectionSchema = z.preprocess(
  // `user` (the spec's other name for username) and `database` are accepted too.
  (body) => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
    const b = body as Record<string, unknown>;
    return { ...b, username: b.username ?? b.user, name: b.name ?? b.database };
  },
  z.object(
    {
      sqltype: z.enum(SQL_TYPES, { error: 'Select mysql or postgresql.' }),
      host: hostField,
      port: optional(
        portNumber.pipe(
          z.coerce
            .number<string | number>({ error: 'A valid integer is required.' })
            .int('A valid integer is required.')
            .min(1, 'Enter a port from 1 to 65535.')
            .max(65535, 'Enter a port from 1 to 65535.'),
        ),
      ).transform((v) => v ?? DEFAULT_DB_PORT),
      name: withoutBidiControls(
        z.string({ error: required }).trim().min(1, 'This field may not be blank.').max(64, 'Ensure this field has no more than 64 characters.'),
      ),
      username: z.string({ error: required }).trim().min(1, 'This field may not be blank.').max(128, 'Ensure this field has no more than 128 characters.'),
      password: optional(z.string({ error: 'Not a valid string.' }).max(1024, 'Ensure this field has no more than 1024 characters.')).transform((v) => v ?? ''),
    },
    { error: 'Expected a JSON object.' },
  ),
);
export type ConnectionDto = z.output<typeof connectionSchema>;

const connectionIdField = z.string({ error: required }).refine(isUuid, 'Not a valid connection id.');
const objectNameField = z.string({ error: required }).min(1, 'This field may not be blank.').max(255, 'Ensure this field has no more than 255 characters.');

/** POST get-object/: 10 rows of a table (spec rowsPerPage 10). */
export const getObjectSchema = z.object(
  {
    connectionId: connectionIdField,
    objectName: objectNameField,
    rowsPerPage: optional(z.coerce.number({ error: 'A valid integer is required.' }).int().min(1, 'Enter 1 to 100.').max(100, 'Enter 1 to 100.')).transform(
      (v) => v ?? 10,
    ),
  },
  { error: 'Expected a JSON object.' },
);
export type GetObjectDto = z.output<typeof getObjectSchema>;

/** POST create-metadata/: a record of the table, with the column selection modal's choices. */
export const createMetadataSchema = z
  .object(
    {
      connectionId: connectionIdField,
      objectName: objectNameField,
      extractOption: extractOptionField,
      recordName: optional(nameField),
      description: optional(textField).transform((v) => v ?? ''),
      ...privateColumnFields,
    },
    { error: 'Expected a JSON object.' },
  )
  .superRefine(checkPrivateColumns);
export type CreateMetadataDto = z.output<typeof createMetadataSchema>;
