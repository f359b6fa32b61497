import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { canViewRecord, type RecordViewer } from '@dc/contracts';
import type { NamedId } from '../directory/directory.repository';
import { ACCESS_FACT_COLUMNS, type AccessFactsRow, toAccessFacts } from '../record-store/access-facts.sql';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import type { Group, GroupField } from './group';

interface GroupRow {
  id: string;
  organisation_id: string;
  owner_id: string;
  owner_username: string | null;
  name: string;
  description: string;
  fields: GroupField[];
  created: Date;
  changed: Date;
}

const SELECT = `
  SELECT g.*, u.username AS owner_username
    FROM catalogue.groups g
    LEFT JOIN catalogue.users u ON u.id = g.owner_id`;

const toGroup = (row: GroupRow): Group => ({
  id: row.id,
  organisationId: row.organisation_id,
  ownerId: row.owner_id,
  ownerUsername: row.owner_username ?? '',
  name: row.name,
  description: row.description,
  fields: row.fields,
  created: row.created,
  changed: row.changed,
});

/** Records of one project sharing one set of access facts. */
interface FactsCountRow extends AccessFactsRow {
  group_id: string;
  records: number;
}

/** Projects I/O in the unit of work: the records' transaction when records change with them. */
@Injectable()
export class GroupsRepository {
  constructor(private readonly work: UnitOfWork) {}

  private get manager(): EntityManager {
    return this.work.manager;
  }

  async find(id: string, options: { forUpdate?: boolean } = {}): Promise<Group | null> {
    const rows: GroupRow[] = await this.manager.query(`${SELECT} WHERE g.id = $1 ${options.forUpdate ? 'FOR UPDATE OF g' : ''}`, [id]);
    return rows[0] ? toGroup(rows[0]) : null;
  }

  async list(organisationId: string): Promise<Group[]> {
    const rows: GroupRow[] = await this.manager.query(`${SELECT} WHERE g.organisation_id = $1 ORDER BY g.created, g.id`, [organisationId]);
    return rows.map(toGroup);
  }

  async insert(group: Omit<Group, 'ownerUsername'>): Promise<void> {
    await this.manager.query(
      'INSERT INTO catalogue.groups (id, organisation_id, owner_id, name, description, fields, created, changed) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)',
      [group.id, group.organisationId, group.ownerId, group.name, group.description, JSON.stringify(group.fields), group.created, group.changed],
    );
  }

  async update(group: Pick<Group, 'id' | 'name' | 'description' | 'fields' | 'changed'>): Promise<void> {
    await this.manager.query('UPDATE catalogue.groups SET name = $2, description = $3, fields = $4::jsonb, changed = $5 WHERE id = $1', [
      group.id,
      group.name,
      group.description,
      JSON.stringify(group.fields),
      group.changed,
    ]);
  }

  async touch(id: string, changed: Date): Promise<void> {
    await this.manager.query('UPDATE catalogue.groups SET changed = $2 WHERE id = $1', [id, changed]);
  }

  async delete(id: string): Promise<void> {
    await this.manager.query('DELETE FROM catalogue.groups WHERE id = $1', [id]);
  }

  /**
   * How many records of each project the viewer may see (membership never widens sight): the records'
   * access facts are judged by the one visibility rule (canViewRecord, libs/contracts), not a copy in
   * SQL. Records are counted per project and set of facts in SQL, so a large project answers a few
   * rows (one per owner and terms), not one per record.
   */
  async visibleRecordCounts(groupIds: string[], viewer: { id: string; organisationId: string }): Promise<Map<string, number>> {
    if (groupIds.length === 0) return new Map();
    const rows: FactsCountRow[] = await this.manager.query(
      `SELECT g AS group_id, ${ACCESS_FACT_COLUMNS}, count(*)::int AS records
         FROM catalogue.records r, unnest(r.group_ids) AS g
        WHERE r.group_ids && $1::text[] AND g = ANY($1::text[])
        GROUP BY g, ${ACCESS_FACT_COLUMNS}`,
      [groupIds],
    );
    const who: RecordViewer = { id: viewer.id, organisationId: viewer.organisationId, groups: [], permissions: [] };
    const counts = new Map<string, number>();
    for (const row of rows) {
      if (canViewRecord(toAccessFacts(row), who)) counts.set(row.group_id, (counts.get(row.group_id) ?? 0) + row.records);
    }
    return counts;
  }

  /** The organisation's projects among these ids, with their names (a record's `groups` for one viewer). */
  async namesIn(organisationId: string, ids: string[]): Promise<NamedId[]> {
    if (ids.length === 0) return [];
    return this.manager.query('SELECT id::text, name FROM catalogue.groups WHERE organisation_id = $1 AND id::text = ANY($2::text[]) ORDER BY name, id', [
      organisationId,
      ids,
    ]);
  }

  /** The ids among these that are projects of the organisation. */
  async idsOf(organisationId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.manager.query('SELECT id::text FROM catalogue.groups WHERE organisation_id = $1', [organisationId]);
    return rows.map((row) => row.id);
  }

  /** Ids of the records in the project, locked for the transaction (the project is being deleted). */
  async recordIdsIn(groupId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.manager.query(
      'SELECT id FROM catalogue.records WHERE group_ids @> ARRAY[$1]::text[] ORDER BY id FOR UPDATE',
      [groupId],
    );
    return rows.map((row) => row.id);
  }
}
