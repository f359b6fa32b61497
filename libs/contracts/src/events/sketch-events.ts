import { z } from 'zod';
import { defineEvent } from './registry';

/**
 * Column sketches of a file, published by the catalogue when extraction ends, kept by the relations
 * service (ARCHITECTURE: relations keeps its own projection). Bounded: at most 100 columns per file,
 * 256 hashes and 101 quantiles per column. No raw value of a private column is in it: hashed
 * columns are sketched from their keyed hashes, masked ones carry no values at all.
 */
const id = z.string().min(1);

export const SKETCH_COLUMN_TYPES = ['integer', 'float', 'boolean', 'date', 'time', 'text', 'empty'] as const;

export const columnSketchSchema = z.object({
  index: z.number().int().nonnegative().describe("Position among the table's shown headers."),
  header: z.string(),
  privacy: z.enum(['plain', 'hashed', 'masked']),
  type: z.enum(SKETCH_COLUMN_TYPES),
  count: z.number().int().nonnegative(),
  missing: z.number().int().nonnegative(),
  distinct: z.number().int().nonnegative(),
  minhash: z
    .array(z.number().int().nonnegative())
    .max(256)
    .describe('The smallest 32-bit hashes of the normalised values, ascending (bottom-k); all of them when the column has fewer.'),
  numeric: z
    .object({
      min: z.number(),
      max: z.number(),
      mean: z.number(),
      std: z.number(),
      quantiles: z.array(z.number()).max(101),
      sampled: z.number().int().nonnegative(),
      exact: z.boolean(),
    })
    .nullable(),
  words: z.array(z.string()).max(200),
  encoding: z
    .enum(['clk'])
    .optional()
    .describe('Hashed columns whose values are CLKs (keyed Bloom filters of character bigrams, compared by Dice similarity) instead of exact keyed hashes.'),
  linkageKeyId: z.string().max(64).optional().describe('Hashed columns: the id of the linkage key they were hashed under.'),
});
export type ColumnSketchPayload = z.output<typeof columnSketchSchema>;

export const tableSketchSchema = z.object({
  name: z.string(),
  totalRows: z.number().int().nonnegative(),
  columns: z.array(columnSketchSchema).max(100),
});
export type TableSketchPayload = z.output<typeof tableSketchSchema>;

export const FileSketched = defineEvent(
  'file.sketched',
  1,
  'Column sketches of an extracted file (value hashes, quantiles, words) for relations between records',
  z.object({
    recordId: id,
    fileId: id,
    fileName: z.string(),
    contentType: z.string(),
    storageKey: z.string().nullable().describe('Where the file is stored (object storage), null once it was removed after extraction.'),
    tables: z.array(tableSketchSchema).max(100),
  }),
);
