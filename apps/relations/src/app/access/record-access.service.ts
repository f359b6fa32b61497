import { Injectable } from '@nestjs/common';
import { canViewRecord, type DerivationLink, isRestrictingTerms, recordPermissions } from '@dc/contracts';
import { type AuthUser, DetailError } from '@dc/platform';
import type { RelatedRecord } from '../projection/related-record';
import { RecordsRepository } from '../projection/records.repository';
import { type ActiveGrant, ApprovedRequests } from './approved-requests';

export type Viewer = AuthUser | null;

/** The same answer for a record that does not exist and one the caller may not see. */
export const notFound = () => new DetailError('Not found.', 404);

/**
 * Who may see and download a record, by the catalogue's rule (libs/contracts) on relations'
 * projection. A derivative of someone else's data (ownerOnly) is read by its owner only while its
 * lineage holds, as the catalogue decides its download (docs/metadata-before-access.md, "Lineage").
 */
@Injectable()
export class RecordAccess {
  constructor(
    private readonly approvals: ApprovedRequests,
    private readonly records: RecordsRepository,
  ) {}

  canView(record: RelatedRecord, viewer: Viewer): boolean {
    return canViewRecord(record, viewer);
  }

  async canDownload(record: RelatedRecord, viewer: Viewer): Promise<boolean> {
    return (await this.downloadable([record], viewer)).has(record.id);
  }

  /** The ids of the records the viewer may download now (the grants looked up once). */
  async downloadable(records: RelatedRecord[], viewer: Viewer): Promise<Set<string>> {
    const granted = viewer && records.some((r) => r.ownerId !== viewer.id) ? await this.approvals.approvedRecordIds(viewer.id) : new Set<string>();
    const ids = new Set<string>();
    for (const record of records) {
      const approvedRequest = !!viewer && viewer.id !== record.ownerId && granted.has(record.id);
      if (!recordPermissions(record, viewer, { approvedRequest }).download) continue;
      if (viewer && record.derivedFrom.length > 0 && !(await this.lineageHolds(record.derivedFrom, viewer))) continue;
      ids.add(record.id);
    }
    return ids;
  }

  /** The viewer's request that lets them download the record now, if any. */
  activeGrant(record: RelatedRecord, viewer: AuthUser): Promise<ActiveGrant | null> {
    return this.approvals.activeGrant(record.id, viewer.id);
  }

  /** Records the viewer may download now through an approved request. */
  approvedRecordIds(viewer: Viewer): Promise<Set<string>> {
    return viewer ? this.approvals.approvedRecordIds(viewer.id) : Promise.resolve(new Set());
  }

  /** Every source the derivative's data depends on is still the maker's to read. */
  private async lineageHolds(links: DerivationLink[], maker: AuthUser): Promise<boolean> {
    const restricting = links.filter((link) => isRestrictingTerms(link.terms));
    if (restricting.some((link) => link.revoked)) return false;
    const sources = await this.records.findRecords(restricting.map((link) => link.recordId));
    for (const link of restricting) {
      const source = sources.find((r) => r.id === link.recordId);
      if (!source) return false;
      const holds =
        link.terms === 'grant' ? !!link.requestId && (await this.approvals.isActiveRequest(link.requestId, maker.id)) : source.access === 'OP' && canViewRecord(source, maker);
      if (!holds) return false;
    }
    return true;
  }
}
