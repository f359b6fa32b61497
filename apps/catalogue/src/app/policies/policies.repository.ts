import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@dc/contracts';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import type { Policy, PolicyRequirement } from './policy';

interface PolicyRow {
  id: string;
  organisation_id: string;
  owner_id: string;
  owner_username: string | null;
  name: string;
  fields: PolicyRequirement[];
  version: number;
  created: Date;
  changed: Date;
}

const SELECT = `
  SELECT p.*, u.username AS owner_username
    FROM catalogue.policies p
    LEFT JOIN catalogue.users u ON u.id = p.owner_id`;

const toPolicy = (row: PolicyRow): Policy => ({
  id: row.id,
  organisationId: row.organisation_id,
  ownerId: row.owner_id,
  ownerUsername: row.owner_username ?? '',
  name: row.name,
  fields: row.fields,
  version: row.version,
  created: row.created,
  changed: row.changed,
});

/** Policy I/O in the unit of work (its transaction when one is open, else the pool). */
export class PolicyStore {
  constructor(private readonly work: UnitOfWork) {}

  private get manager(): EntityManager {
    return this.work.manager;
  }

  async publish(...events: EventEnvelope[]): Promise<void> {
    await this.work.publish(...events);
  }

  async find(id: string, options: { forUpdate?: boolean } = {}): Promise<Policy | null> {
    const rows: PolicyRow[] = await this.manager.query(`${SELECT} WHERE p.id = $1 ${options.forUpdate ? 'FOR UPDATE OF p' : ''}`, [id]);
    return rows[0] ? toPolicy(rows[0]) : null;
  }

  async list(organisationId: string, page: { offset: number; limit: number }): Promise<{ count: number; policies: Policy[] }> {
    const [{ count }]: Array<{ count: number }> = await this.manager.query('SELECT count(*)::int AS count FROM catalogue.policies WHERE organisation_id = $1', [
      organisationId,
    ]);
    const rows: PolicyRow[] = await this.manager.query(`${SELECT} WHERE p.organisation_id = $1 ORDER BY p.created, p.id LIMIT $2 OFFSET $3`, [
      organisationId,
      page.limit,
      page.offset,
    ]);
    return { count, policies: rows.map(toPolicy) };
  }

  async insert(policy: Omit<Policy, 'ownerUsername'>): Promise<void> {
    await this.manager.query(
      'INSERT INTO catalogue.policies (id, organisation_id, owner_id, name, fields, version, created, changed) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)',
      [policy.id, policy.organisationId, policy.ownerId, policy.name, JSON.stringify(policy.fields), policy.version, policy.created, policy.changed],
    );
  }

  async update(policy: Pick<Policy, 'id' | 'name' | 'fields' | 'version' | 'changed'>): Promise<void> {
    await this.manager.query('UPDATE catalogue.policies SET name = $2, fields = $3::jsonb, version = $4, changed = $5 WHERE id = $1', [
      policy.id,
      policy.name,
      JSON.stringify(policy.fields),
      policy.version,
      policy.changed,
    ]);
  }

  async delete(id: string): Promise<void> {
    await this.manager.query('DELETE FROM catalogue.policies WHERE id = $1', [id]);
  }

  /** How many records the policy is attached to. */
  async recordsUsing(id: string): Promise<number> {
    const [{ count }]: Array<{ count: number }> = await this.manager.query('SELECT count(*)::int AS count FROM catalogue.records WHERE policy_id = $1', [id]);
    return count;
  }
}

@Injectable()
export class PoliciesRepository {
  private readonly store: PolicyStore;

  constructor(private readonly work: UnitOfWork) {
    this.store = new PolicyStore(work);
  }

  transaction<T>(work: (store: PolicyStore) => Promise<T>): Promise<T> {
    return this.work.transaction(() => work(this.store));
  }

  read<T>(work: (store: PolicyStore) => Promise<T>): Promise<T> {
    return work(this.store);
  }

  /** The policy's name, for a record's policy_name (in the unit of work open around the caller, a record's included). */
  async nameOf(id: string | null): Promise<string | null> {
    if (!id) return null;
    const rows: Array<{ name: string }> = await this.work.manager.query('SELECT name FROM catalogue.policies WHERE id = $1', [id]);
    return rows[0]?.name ?? null;
  }

  /** Whether the policy exists and belongs to the organisation (a record may only use its own organisation's). */
  async belongsTo(id: string, organisationId: string): Promise<boolean> {
    const rows: unknown[] = await this.work.manager.query('SELECT 1 FROM catalogue.policies WHERE id = $1 AND organisation_id = $2', [id, organisationId]);
    return rows.length === 1;
  }
}
