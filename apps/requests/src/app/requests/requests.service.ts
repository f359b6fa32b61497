import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { createEvent, DATA_ADMIN, EventEnvelope, isUuid, listPage, pageOf, RequestCreated, RequestUpdated } from '@dc/contracts';
import { AuthUser, currentCorrelationId, DetailError, FieldErrors, FieldValidationError, invalidPk, NonFieldError, notFound } from '@dc/platform';
import type { AuditAction } from '../audit/audit-chain';
import { AuditRepository } from '../audit/audit.repository';
import { DirectoryRepository, Person } from '../directory/directory.repository';
import { decisionMail, requestSentMails } from '../mail/request-mails';
import { MessagesRepository } from './messages.repository';
import { KnownRecord, RecordsRepository } from '../records/records.repository';
import type { CreateRequestDto, UpdateRequestDto } from './dto/request.dto';
import type { AccessRequest, RequestPolicy } from './request';
import {
  ANSWER_EVERYTHING,
  applyAnswers,
  canSee,
  everyRequirementAnswered,
  isDataAdminOf,
  isReviewer,
  parseExpiry,
  Party,
  partyOf,
  refusalToMove,
  refusalToRequest,
  unanswered,
} from './request-rules';
import { requestView, RequestView } from './request-view';
import { RequestStore, RequestsRepository } from './requests.repository';

export const ALREADY_REQUESTED = 'You have already requested this record: your request is loaded.';
export const READ_ONLY = 'Answers, purpose and note are read-only once a request was sent.';
export const REASON_REQUIRED = 'Give a reason: the requestor reads it in the message thread.';
export const revokedMessage = (reason: string) => `Access revoked: ${reason}`;

/** The address of another page of a list, relative to the list's own (as the Jobs page's). */
const pageLink = (page: number) => `?page=${page}`;

const snapshotOf = (request: AccessRequest, record: KnownRecord) => ({
  requestId: request.id,
  recordId: request.recordId,
  requestorId: request.requestorId,
  requestorOrganisationId: request.requestorOrganisationId,
  ownerId: record.ownerId,
  organisationId: record.organisationId,
  status: request.status,
  expiresAt: request.expiresAt?.toISOString() ?? null,
  createdAt: request.createdAt.toISOString(),
  changedAt: request.changedAt.toISOString(),
  version: request.version,
});

/**
 * Access requests (spec sections 3, 4 and 7): one open request per requestor and record, the status
 * machine of section 4 (plus revoking an approval, with an optional expiry on approval), mails to
 * the other party, and an audit entry for every decision, all in the transaction of the change.
 */
@Injectable()
export class RequestsService {
  constructor(
    private readonly requests: RequestsRepository,
    private readonly records: RecordsRepository,
    private readonly directory: DirectoryRepository,
    private readonly audit: AuditRepository,
    private readonly messages: MessagesRepository,
  ) {}

  /** POST /api/requests/: a new request, or (200, with a message) the caller's open one. */
  async create(user: AuthUser, dto: CreateRequestDto): Promise<{ created: boolean; body: RequestView | { message: string; request: RequestView } }> {
    const recordId = dto.record.toLowerCase();
    const correlationId = currentCorrelationId();
    return this.requests.transaction(async (store) => {
      const record = isUuid(recordId) ? await this.records.findRecord(store.manager, recordId) : null;
      if (!record || record.deleted || !canSee(record, user)) throw new FieldValidationError({ record: [invalidPk(dto.record)] });
      const refusal = refusalToRequest(user, record);
      if (refusal) throw new FieldValidationError({ record: [refusal] });
      await this.directory.rememberCaller(store.manager, { id: user.id, username: user.username, organisationId: user.organisationId, groups: user.groups });
      await store.lockPair(record.id, user.id);
      const existing = await store.findOpen(record.id, user.id);
      if (existing) return { created: false, body: { message: ALREADY_REQUESTED, request: await this.view(store.manager, existing, 'requestor') } };

      const now = new Date();
      const request: AccessRequest = {
        id: randomUUID(),
        recordId: record.id,
        requestorId: user.id,
        requestorOrganisationId: user.organisationId,
        status: 'new',
        purpose: dto.purpose ?? '',
        note: dto.note ?? '',
        accessPolicies: await this.currentPolicies(store.manager, record),
        createdAt: now,
        changedAt: now,
        sentAt: null,
        decidedAt: null,
        decidedBy: null,
        expiresAt: null,
        revokedAt: null,
        revokeReason: null,
        version: 1,
      };
      await store.insert(request);
      await store.publish(createEvent(RequestCreated, request.id, snapshotOf(request, record), { correlationId }));
      await this.audit.append(store.manager, {
        id: randomUUID(),
        requestId: request.id,
        recordId: record.id,
        actorId: user.id,
        action: 'created',
        details: {},
        occurredAt: now,
      });
      return { created: true, body: await this.view(store.manager, request, 'requestor') };
    });
  }

  async get(id: string, user: AuthUser): Promise<RequestView> {
    return this.requests.read(async (store) => {
      const { request, party } = await this.partOf(store, id, user);
      return this.view(store.manager, request, party);
    });
  }

  /** GET /api/requests/sent_requests: My Requests. */
  sent(user: AuthUser, query: { page?: string; page_size?: string }) {
    const at = pageOf(query);
    return this.requests.read(async (store) => {
      const { count, requests } = await store.sent(user.id, { offset: at.offset, limit: at.pageSize });
      return listPage(await this.views(store.manager, requests, 'requestor'), count, at, pageLink);
    });
  }

  /** GET /api/requests/received_requests: requests for records the caller reviews, once sent. */
  received(user: AuthUser, query: { page?: string; page_size?: string }) {
    const at = pageOf(query);
    return this.requests.read(async (store) => {
      const { count, requests } = await store.received(
        { id: user.id, organisationId: user.organisationId, dataAdmin: isDataAdminOf(user, user.organisationId) },
        { offset: at.offset, limit: at.pageSize },
      );
      return listPage(await this.views(store.manager, requests, 'reviewer'), count, at, pageLink);
    });
  }

  /**
   * GET /api/requests/attention: what waits for the caller (received requests to decide, messages of
   * the other side not yet read), in all and per request.
   */
  attention(user: AuthUser) {
    return this.requests.read(async (store) => {
      const rows = await store.attention({ id: user.id, organisationId: user.organisationId, dataAdmin: isDataAdminOf(user, user.organisationId) });
      const pending = rows.filter((r) => r.pending).length;
      const unread = rows.reduce((sum, r) => sum + r.unread, 0);
      return {
        count: pending + unread,
        pending_requests: pending,
        unread_messages: unread,
        requests: rows.map((r) => ({ request: r.requestId, pending: r.pending, unread_messages: r.unread })),
      };
    });
  }

  /** PUT /api/requests/{id}/: the party's status change, and while new the requestor's purpose, note and answers. */
  async update(id: string, user: AuthUser, dto: UpdateRequestDto): Promise<RequestView> {
    const correlationId = currentCorrelationId();
    return this.requests.transaction(async (store) => {
      const { request, party, record } = await this.partOf(store, id, user, { forUpdate: true });
      const refusal = refusalToMove(party, request.status, dto.status);
      if (refusal) throw refusal.status === 403 ? new DetailError(refusal.message, 403) : new FieldValidationError({ status: [refusal.message] });

      const now = new Date();
      const next: AccessRequest = { ...request, status: dto.status };
      const errors: FieldErrors = {};
      const editing = party === 'requestor' && request.status === 'new';
      if (editing) {
        next.purpose = dto.purpose ?? request.purpose;
        next.note = dto.note ?? request.note;
        next.accessPolicies = this.followPolicy(request.accessPolicies, await this.currentPolicies(store.manager, record));
        if (dto.access_policies) {
          const answered = applyAnswers(next.accessPolicies, dto.access_policies);
          if (answered.errors.length) errors.access_policies = answered.errors;
          next.accessPolicies = answered.policies;
        }
      } else if (this.changesContent(request, dto)) {
        throw new NonFieldError(READ_ONLY);
      }
      if (dto.status === 'sent' && !errors.access_policies && !everyRequirementAnswered(next.accessPolicies)) errors.access_policies = [ANSWER_EVERYTHING];
      if (dto.expires_at !== undefined && dto.expires_at !== null && dto.expires_at !== '' && dto.status !== 'approved')
        errors.expires_at = ['Only an approval takes an expiry.'];
      if (dto.status === 'approved') {
        const expiry = parseExpiry(dto.expires_at, now);
        if ('error' in expiry) errors.expires_at = [expiry.error];
        else next.expiresAt = expiry.expiresAt;
      }
      if (dto.status === 'revoked' && !dto.reason) errors.reason = [REASON_REQUIRED];
      if (dto.reason && dto.status !== 'revoked') errors.reason = ['Only revoking an approval takes a reason.'];
      if (Object.keys(errors).length) throw new FieldValidationError(errors);

      const statusChanged = next.status !== request.status;
      if (
        !statusChanged &&
        JSON.stringify([next.purpose, next.note, next.accessPolicies]) === JSON.stringify([request.purpose, request.note, request.accessPolicies])
      ) {
        return this.view(store.manager, request, party);
      }
      if (next.status === 'sent') next.sentAt = now;
      if (next.status === 'approved' || next.status === 'disapproved') Object.assign(next, { decidedAt: now, decidedBy: user.id });
      if (next.status === 'revoked') Object.assign(next, { revokedAt: now, revokeReason: dto.reason! });
      Object.assign(next, { changedAt: now, version: request.version + 1 });
      await store.save(next);

      const events: EventEnvelope[] = [createEvent(RequestUpdated, next.id, snapshotOf(next, record), { correlationId })];
      const facts = { requestId: next.id, recordName: record.name, correlationId };
      if (next.status === 'sent') {
        const requestor = await this.directory.person(store.manager, next.requestorId);
        const organisation = await this.directory.organisation(store.manager, next.requestorOrganisationId);
        events.push(
          ...requestSentMails(
            await this.reviewersOf(store.manager, record),
            { username: requestor?.username ?? user.username, organisationName: organisation?.name ?? '' },
            next.purpose,
            facts,
          ),
        );
      }
      if (next.status === 'approved' || next.status === 'disapproved' || next.status === 'revoked') {
        const requestor = await this.directory.person(store.manager, next.requestorId);
        if (requestor) events.push(...decisionMail(requestor, next.status, { expiresAt: next.expiresAt, reason: next.revokeReason ?? undefined }, facts));
      }
      if (next.status === 'revoked')
        await this.messages.insert(store.manager, {
          id: randomUUID(),
          requestId: next.id,
          userId: user.id,
          message: revokedMessage(dto.reason!),
          createdAt: now,
        });
      await store.publish(...events);
      if (statusChanged) {
        const details: Record<string, string | null> = {};
        if (next.status === 'approved') details.expiresAt = next.expiresAt?.toISOString() ?? null;
        if (next.status === 'revoked') details.reason = next.revokeReason;
        await this.audit.append(store.manager, {
          id: randomUUID(),
          requestId: next.id,
          recordId: next.recordId,
          actorId: user.id,
          action: next.status as AuditAction,
          details,
          occurredAt: now,
        });
      }
      return this.view(store.manager, next, party);
    });
  }

  /** GET /api/requests/audit/?record=: the record's audit trail, for its owner side only. */
  trail(user: AuthUser, recordId: string | undefined, query: { page?: string; page_size?: string }) {
    if (!recordId) throw new FieldValidationError({ record: ['This field is required.'] });
    const at = pageOf(query, { size: 200, max: 500 });
    return this.requests.read(async (store) => {
      const record = isUuid(recordId) ? await this.records.findRecord(store.manager, recordId.toLowerCase()) : null;
      if (!record || !isReviewer(user, record)) throw notFound();
      const { count, entries } = await this.audit.ofRecord(store.manager, record.id, { offset: at.offset, limit: at.pageSize });
      const names = await this.directory.usernames(
        store.manager,
        entries.map((e) => e.actorId),
      );
      return listPage(
        entries.map((e) => ({
          seq: e.seq,
          id: e.id,
          request: e.requestId,
          action: e.action,
          actor: names.get(e.actorId) ?? '',
          actor_id: e.actorId,
          details: e.details,
          occurred_at: e.occurredAt.toISOString(),
          prev_hash: e.prevHash,
          hash: e.hash,
        })),
        count,
        at,
        (n) => `?record=${encodeURIComponent(recordId)}&page=${n}`,
      );
    });
  }

  /** The request and the caller's part in it; 404 when they have none, whether or not it exists. */
  async partOf(
    store: RequestStore,
    id: string,
    user: AuthUser,
    options: { forUpdate?: boolean } = {},
  ): Promise<{ request: AccessRequest; party: Party; record: KnownRecord }> {
    const request = isUuid(id) ? await store.find(id.toLowerCase(), options) : null;
    const record = request && (await this.records.findRecord(store.manager, request.recordId));
    const party = request && record ? partyOf(user, request, record) : null;
    if (!request || !record || !party) throw notFound();
    return { request, party, record };
  }

  /** The owner and the Data Admins of the record's organisation, each once. */
  async reviewersOf(manager: EntityManager, record: KnownRecord): Promise<Person[]> {
    const owner = await this.directory.person(manager, record.ownerId);
    const admins = await this.directory.membersInGroup(manager, record.organisationId, DATA_ADMIN);
    const seen = new Set<string>();
    return [...(owner ? [owner] : []), ...admins].filter((p) => !seen.has(p.id) && !!seen.add(p.id));
  }

  async view(manager: EntityManager, request: AccessRequest, party: Party): Promise<RequestView> {
    return (await this.views(manager, [request], party))[0];
  }

  /** Views of a page of requests: their records, people and organisations read in one query each. */
  async views(manager: EntityManager, requests: AccessRequest[], party: Party): Promise<RequestView[]> {
    const records = await this.records.records(
      manager,
      requests.map((r) => r.recordId),
    );
    const people = requests.flatMap((r) => [r.requestorId, ...(r.decidedBy ? [r.decidedBy] : [])]);
    const names = await this.directory.usernames(manager, [...people, ...[...records.values()].map((r) => r.ownerId)]);
    const organisations = await this.directory.organisations(
      manager,
      requests.map((r) => r.requestorOrganisationId),
    );
    return requests.map((request) => {
      const record = records.get(request.recordId) ?? null;
      return requestView(request, party, {
        record,
        requestorUsername: names.get(request.requestorId) ?? '',
        requestorOrganisation: organisations.get(request.requestorOrganisationId) ?? null,
        ownerUsername: record ? (names.get(record.ownerId) ?? '') : '',
        decidedByUsername: request.decidedBy ? (names.get(request.decidedBy) ?? '') : null,
      });
    });
  }

  /** The record's policy as it is now, unanswered (none when the record has none, or its event has not arrived). */
  private async currentPolicies(manager: EntityManager, record: KnownRecord): Promise<RequestPolicy[]> {
    const policy = record.policyId ? await this.records.findPolicy(manager, record.policyId) : null;
    return policy ? [unanswered(policy)] : [];
  }

  /** While new, a request follows the record's policy; answers to requirements that stay are kept. */
  private followPolicy(held: RequestPolicy[], current: RequestPolicy[]): RequestPolicy[] {
    const answers = new Map(held.flatMap((p) => p.items.map((i) => [`${p.id}\u0000${i.object}\u0000${i.requirement}`, i.agree] as const)));
    return current.map((p) => ({ ...p, items: p.items.map((i) => ({ ...i, agree: answers.get(`${p.id}\u0000${i.object}\u0000${i.requirement}`) ?? '' })) }));
  }

  /** Whether the PUT would change what is read-only once sent (values sent back unchanged are fine). */
  private changesContent(request: AccessRequest, dto: UpdateRequestDto): boolean {
    if (dto.purpose !== undefined && dto.purpose !== request.purpose) return true;
    if (dto.note !== undefined && dto.note !== request.note) return true;
    if (!dto.access_policies) return false;
    const answered = applyAnswers(request.accessPolicies, dto.access_policies);
    return answered.errors.length > 0 || JSON.stringify(answered.policies) !== JSON.stringify(request.accessPolicies);
  }
}
