import { Injectable } from '@nestjs/common';
import { canViewRecord, recordPermissions } from '@dc/contracts';
import { type AuthUser, DetailError } from '@dc/platform';
import type { RelatedRecord } from '../projection/related-record';
import { ApprovedRequests } from './approved-requests';

export type Viewer = AuthUser | null;

/** The same answer for a record that does not exist and one the caller may not see. */
export const notFound = () => new DetailError('Not found.', 404);

/** Who may see and download a record, by the catalogue's rule (libs/contracts) on relations' projection. */
@Injectable()
export class RecordAccess {
  constructor(private readonly approvals: ApprovedRequests) {}

  canView(record: RelatedRecord, viewer: Viewer): boolean {
    return canViewRecord(record, viewer);
  }

  async canDownload(record: RelatedRecord, viewer: Viewer): Promise<boolean> {
    if (!canViewRecord(record, viewer)) return false;
    const approvedRequest = !!viewer && viewer.id !== record.ownerId && (await this.approvals.isApproved(record.id, viewer.id));
    return recordPermissions(record, viewer, { approvedRequest }).download;
  }
}
