import { Injectable } from '@nestjs/common';
import { canViewRecord, type DerivationLink, isRestrictingTerms, linkStanding, recordPermissions } from '@dc/contracts';
import type { AuthUser } from '@dc/platform';
import type { RelatedRecord } from '../records/related-record';
import { RecordsRepository } from '../records/records.repository';
import { type ActiveGrant, RequestGrantsRepository } from './request-grants.repository';

export type Viewer = AuthUser | null;

/**
 * Who may see and download a record, by the catalogue's rule (libs/contracts) on relations'
 * projection. A derivative of someone else's data (ownerOnly) is read by its owner only while its
 * lineage holds, as the catalogue decides its download (docs/metadata-before-access.md, "Lineage").
 */
@Injectable()
export class RecordAccess {
  constructor(
    private readonly approvals: RequestGrantsRepository,
    private readonly records: RecordsRepository,
  ) {}

  canView(record: RelatedRecord, viewer: Viewer): boolean {
    return canViewRecord(record, viewer);
  }

  async canDownload(record: RelatedRecord, viewer: Viewer): Promise<boolean> {
    return (await this.downloadable([record], viewer)).has(record.id);
  }

  /** The ids of the records the viewer may download now (their grants looked up at once). */
  async downloadable(records: RelatedRecord[], viewer: Viewer): Promise<Set<string>> {
    const others = viewer ? records.filter((r) => r.ownerId !== viewer.id).map((r) => r.id) : [];
    const granted = viewer ? await this.approvals.approvedAmong(viewer.id, others) : new Set<string>();
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

  /** Every source the derivative's data depends on is still the maker's to read (the catalogue's rule for downloads). */
  private async lineageHolds(links: DerivationLink[], maker: AuthUser): Promise<boolean> {
    const sources = await this.records.findRecords(links.filter((link) => isRestrictingTerms(link.terms)).map((link) => link.recordId));
    for (const link of links) {
      const source = sources.find((r) => r.id === link.recordId) ?? null;
      const grant = source && link.terms === 'grant' && !link.revoked ? await this.approvals.activeGrant(source.id, maker.id) : null;
      if (linkStanding(link, { source, maker, activeRequestId: grant?.requestId ?? null }) !== 'holds') return false;
    }
    return true;
  }
}
