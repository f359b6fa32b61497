import { grantIsActive, shownRequestStatus, type RequestStatus, type ShownRequestStatus } from '@dc/contracts';

export type { RequestStatus, ShownRequestStatus };

/** The caller's current request for a record, as far as the catalogue needs it. */
export interface RecordRequest {
  requestId: string;
  status: RequestStatus;
  /** approved only: when the grant ends (null: until revoked or closed). */
  expiresAt: Date | null;
}

/**
 * Port: the caller's access request for a record, for the record's request_status and the
 * approved-requestor download rule (ARCHITECTURE section 8). The requests service owns requests;
 * the catalogue keeps a projection of them fed by its request.* events (ProjectedRecordRequests).
 */
export abstract class RecordRequests {
  /** The user's newest request for the record that is not closed, or null. */
  abstract requestOf(recordId: string, userId: string): Promise<RecordRequest | null>;

  /** The status a record shows the user: `expired` once an approval's expiry has passed. */
  async statusOf(recordId: string, userId: string, now: Date = new Date()): Promise<ShownRequestStatus | null> {
    const request = await this.requestOf(recordId, userId);
    return request ? shownRequestStatus(request, now) : null;
  }

  /** The request that grants the user download right now: approved, not revoked or closed, not past its expiry. */
  async activeGrant(recordId: string, userId: string, now: Date = new Date()): Promise<RecordRequest | null> {
    const request = await this.requestOf(recordId, userId);
    return request && grantIsActive(request, now) ? request : null;
  }

  /**
   * Whether the user holds a grant to download the record's data right now (approved, not revoked,
   * closed or past its expiry): asked when a download link is made, and again when it is followed.
   */
  async hasValidGrant(recordId: string, userId: string, now: Date = new Date()): Promise<boolean> {
    return (await this.activeGrant(recordId, userId, now)) !== null;
  }
}
