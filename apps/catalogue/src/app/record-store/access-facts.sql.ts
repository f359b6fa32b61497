import type { RecordAccessFacts } from '@dc/contracts';

/** The columns of catalogue.records (as `r`) the one visibility rule (canViewRecord, libs/contracts) reads. */
export const ACCESS_FACT_COLUMNS = 'r.owner_id, r.organisation_id, r.visibility, r.shared_user_ids, r.shared_organisation_ids, r.access, r.owner_only';

/** A row holding ACCESS_FACT_COLUMNS. */
export interface AccessFactsRow {
  owner_id: string;
  organisation_id: string;
  visibility: string;
  shared_user_ids: string[];
  shared_organisation_ids: string[];
  access: string;
  owner_only: boolean;
}

export function toAccessFacts(row: AccessFactsRow): RecordAccessFacts {
  return {
    ownerId: row.owner_id,
    organisationId: row.organisation_id,
    visibility: row.visibility,
    sharedUserIds: row.shared_user_ids,
    sharedOrganisationIds: row.shared_organisation_ids,
    access: row.access,
    ownerOnly: row.owner_only,
  };
}
