/** Request statuses (spec section 4). */
export type RequestStatus = 'new' | 'sent' | 'review' | 'approved' | 'disapproved' | 'closed';

/**
 * Port: the caller's access request for a record, for the record's request_status and the
 * approved-requestor download rule (ARCHITECTURE section 8). The requests service owns requests;
 * the catalogue is to keep a projection of them fed by its request.* events, as an adapter of this
 * port. Until that service exists nobody has a request (NoRecordRequests).
 */
export abstract class RecordRequests {
  abstract statusOf(recordId: string, userId: string): Promise<RequestStatus | null>;
}

/** No requests service yet: no caller has a request, so only the other download rules apply. */
export class NoRecordRequests extends RecordRequests {
  statusOf(): Promise<RequestStatus | null> {
    return Promise.resolve(null);
  }
}
