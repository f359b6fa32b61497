import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createEvent, isUuid, pageOf, PolicyDeleted, PolicyUpdated } from '@dc/contracts';
import { AuthUser, currentCorrelationId, DetailError, NonFieldError, notFound } from '@dc/platform';
import { toRecordsPage } from '@dc/search-index';
import { BASIC_POLICY_REFUSED, forbidden } from '../record-model/records.errors';
import { canManagePolicies, isMemberOf } from '../record-model/sharing-rules';
import type { z } from 'zod';
import type { PolicyDto, policyViewSchema } from './dto/policy.dto';
import type { Policy } from './policy';
import { PoliciesRepository, PolicyStore } from './policies.repository';

/** A policy as GET /api/policies/ shows it (spec section 3, Policy). */
export function policyView(policy: Policy, user: AuthUser): PolicyView {
  return {
    id: policy.id,
    name: policy.name,
    owner: policy.ownerUsername,
    owner_id: policy.ownerId,
    created: policy.created.toISOString(),
    changed: policy.changed.toISOString(),
    fields: policy.fields,
    can_edit: canManagePolicies(user, policy.organisationId) && user.clientType !== 'BASIC',
  };
}
export type PolicyView = z.output<typeof policyViewSchema>;

const policyEvent = (policy: Omit<Policy, 'ownerUsername'>, correlationId?: string) =>
  createEvent(
    PolicyUpdated,
    policy.id,
    {
      policyId: policy.id,
      organisationId: policy.organisationId,
      ownerId: policy.ownerId,
      name: policy.name,
      fields: policy.fields,
      createdAt: policy.created.toISOString(),
      changedAt: policy.changed.toISOString(),
      version: policy.version,
    },
    { correlationId },
  );

export const POLICY_IN_USE = (count: number) =>
  `This policy is attached to ${count === 1 ? '1 record' : `${count} records`}. Choose another policy for ${count === 1 ? 'it' : 'them'} first.`;

/**
 * Access policies of an organisation: its members read them, its Data Admins create, change and
 * delete them; other organisations never see them (404).
 */
@Injectable()
export class PoliciesService {
  constructor(private readonly policies: PoliciesRepository) {}

  list(user: AuthUser, query: { page?: string; page_size?: string }, baseUrl: string) {
    const { page, pageSize, offset } = pageOf(query);
    return this.policies.read(async (store) => {
      const { count, policies } = await store.list(user.organisationId, { offset, limit: pageSize });
      return toRecordsPage({ count, results: policies.map((p) => policyView(p, user)) }, { baseUrl, page, pageSize });
    });
  }

  get(id: string, user: AuthUser): Promise<PolicyView> {
    return this.policies.read(async (store) => policyView(await this.visible(store, id, user), user));
  }

  create(user: AuthUser, dto: PolicyDto): Promise<PolicyView> {
    this.assertManager(user, user.organisationId);
    const now = new Date();
    const policy = {
      id: randomUUID(),
      organisationId: user.organisationId,
      ownerId: user.id,
      name: dto.policyName,
      fields: dto.policyFields,
      version: 1,
      created: now,
      changed: now,
    };
    const correlationId = currentCorrelationId();
    return this.policies.transaction(async (store) => {
      await store.insert(policy);
      await store.publish(policyEvent(policy, correlationId));
      return policyView((await store.find(policy.id))!, user);
    });
  }

  update(id: string, user: AuthUser, dto: PolicyDto): Promise<PolicyView> {
    const correlationId = currentCorrelationId();
    return this.policies.transaction(async (store) => {
      const policy = await this.visible(store, id, user, { forUpdate: true });
      this.assertManager(user, policy.organisationId);
      if (policy.name === dto.policyName && JSON.stringify(policy.fields) === JSON.stringify(dto.policyFields)) return policyView(policy, user);
      const next = { ...policy, name: dto.policyName, fields: dto.policyFields, version: policy.version + 1, changed: new Date() };
      await store.update(next);
      await store.publish(policyEvent(next, correlationId));
      return policyView((await store.find(id))!, user);
    });
  }

  /** A policy still attached to records is kept: dropping it silently would loosen their terms. */
  async remove(id: string, user: AuthUser): Promise<void> {
    const correlationId = currentCorrelationId();
    await this.policies.transaction(async (store) => {
      const policy = await this.visible(store, id, user, { forUpdate: true });
      this.assertManager(user, policy.organisationId);
      const inUse = await store.recordsUsing(id);
      if (inUse) throw new NonFieldError(POLICY_IN_USE(inUse), 409);
      await store.delete(id);
      await store.publish(createEvent(PolicyDeleted, id, { policyId: id, organisationId: policy.organisationId }, { correlationId }));
    });
  }

  private async visible(store: PolicyStore, id: string, user: AuthUser, options: { forUpdate?: boolean } = {}): Promise<Policy> {
    const policy = isUuid(id) ? await store.find(id.toLowerCase(), options) : null;
    if (!policy || !isMemberOf(user, policy.organisationId)) throw notFound();
    return policy;
  }

  private assertManager(user: AuthUser, organisationId: string): void {
    if (user.clientType === 'BASIC') throw new DetailError(BASIC_POLICY_REFUSED, 403);
    if (!canManagePolicies(user, organisationId)) throw forbidden();
  }
}
