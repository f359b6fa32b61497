import { z } from 'zod';
import { SOURCE_TERMS } from '@dc/contracts';
import { isoDateTime } from '@dc/platform';

const terms = z
  .enum(SOURCE_TERMS)
  .describe(
    "own: the maker's or their organisation's; public: Everyone and Open; open: Open to the maker, not to everyone; grant: through the maker's approved request.",
  );

/** A derived record's sources as its maker sees them (GET /api/records/{id}/ `lineage`). */
export const lineageViewSchema = z
  .object({
    restricted: z.boolean().describe('Visible to and downloadable by its maker alone: a source was shared with them (open or grant), not published.'),
    download_blocked: z
      .string()
      .nullable()
      .describe('Why its data can no longer be downloaded (download_url is then null); null while every source still holds.'),
    sources: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        terms,
        via: z.string().nullable().describe('The derivative of this source the record was made from; null when read directly.'),
        revoked: z.boolean().describe("The source's owner revoked its use in this record."),
        holds: z.boolean().describe('Whether the terms still allow download now.'),
        reason: z.string().nullable().describe('Why it no longer holds.'),
      }),
    ),
  })
  .nullable()
  .describe(
    'Made from other records (a merge): its sources and whether each still holds. Shown to those who may edit the record; null otherwise, and for records not made from others.',
  );
export type LineageView = z.output<typeof lineageViewSchema>;

/** The records made from this one, as its owner side sees them (GET /api/records/{id}/ `derivatives`). */
export const derivativesViewSchema = z
  .array(
    z.object({
      id: z.string(),
      name: z.string(),
      user: z.string().describe("the maker's username"),
      date_created: isoDateTime,
      terms,
      revoked: z.boolean(),
      date_revoked: isoDateTime.nullable(),
    }),
  )
  .describe(
    "Records made from this one (directly or from its derivatives), newest first: for its owner and its organisation's Data Admins; an empty list for everyone else.",
  );
export type DerivativeView = z.output<typeof derivativesViewSchema>[number];

export const revokeDerivativeResponseSchema = z.object({ detail: z.string(), derivative: derivativesViewSchema.element });
