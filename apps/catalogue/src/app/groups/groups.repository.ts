import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { NamedId } from '../directory/directory.repository';
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

/** Records the viewer may see (ARCHITECTURE section 8; an owner-only record its owner alone), as SQL over catalogue.records r: $viewer, $organisation. */
const VISIBLE = (viewer: string, organisation: string) =>
  `(r.owner_id = ${viewer} OR (NOT r.owner_only AND (r.visibility = 'EV' OR r.organisation_id = ${organisation}
    OR (r.visibility = 'CU' AND (${viewer} = ANY(r.shared_user_ids) OR ${organisation} = ANY(r.shared_organisation_ids))))))`;

/** Projects I/O on a given entity manager: the records' transaction when records change with them. */
@Injectable()
export class GroupsRepository {
  async find(manager: EntityManager, id: string, options: { forUpdate?: boolean } = {}): Promise<Group | null> {
    const rows: GroupRow[] = await manager.query(`${SELECT} WHERE g.id = $1 ${options.forUpdate ? 'FOR UPDATE OF g' : ''}`, [id]);
    return rows[0] ? toGroup(rows[0]) : null;
  }

  async list(manager: EntityManager, organisationId: string): Promise<Group[]> {
    const rows: GroupRow[] = await manager.query(`${SELECT} WHERE g.organisation_id = $1 ORDER BY g.created, g.id`, [organisationId]);
    return rows.map(toGroup);
  }

  async insert(manager: EntityManager, group: Omit<Group, 'ownerUsername'>): Promise<void> {
    await manager.query(
      'INSERT INTO catalogue.groups (id, organisation_id, owner_id, name, description, fields, created, changed) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)',
      [group.id, group.organisationId, group.ownerId, group.name, group.description, JSON.stringify(group.fields), group.created, group.changed],
    );
  }

  async update(manager: EntityManager, group: Pick<Group, 'id' | 'name' | 'description' | 'fields' | 'changed'>): Promise<void> {
    await manager.query('UPDATE catalogue.groups SET name = $2, description = $3, fields = $4::jsonb, changed = $5 WHERE id = $1', [
      group.id,
      group.name,
      group.description,
      JSON.stringify(group.fields),
      group.changed,
    ]);
  }

  async touch(manager: EntityManager, id: string, changed: Date): Promise<void> {
    await manager.query('UPDATE catalogue.groups SET changed = $2 WHERE id = $1', [id, changed]);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query('DELETE FROM catalogue.groups WHERE id = $1', [id]);
  }

  /** How many records of each project the viewer may see (membership never widens sight). */
  async visibleRecordCounts(manager: EntityManager, groupIds: string[], viewer: { id: string; organisationId: string }): Promise<Map<string, number>> {
    if (groupIds.length === 0) return new Map();
    const rows: Array<{ group_id: string; count: number }> = await manager.query(
      `SELECT g AS group_id, count(*)::int AS count
         FROM catalogue.records r, unnest(r.group_ids) AS g
        WHERE r.group_ids && $1::text[] AND g = ANY($1::text[]) AND ${VISIBLE('$2', '$3')}
        GROUP BY g`,
      [groupIds, viewer.id, viewer.organisationId],
    );
    return new Map(rows.map((row) => [row.group_id, row.count]));
  }

  /** The organisation's projects among these ids, with their names (a record's `groups` for one viewer). */
  async namesIn(manager: EntityManager, organisationId: string, ids: string[]): Promise<NamedId[]> {
    if (ids.length === 0) return [];
    return manager.query('SELECT id::text, name FROM catalogue.groups WHERE organisation_id = $1 AND id::text = ANY($2::text[]) ORDER BY name, id', [
      organisationId,
      ids,
    ]);
  }

  /** The ids among these that are projects of the organisation. */
  async idsOf(manager: EntityManager, organisationId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await manager.query('SELECT id::text FROM catalogue.groups WHERE organisation_id = $1', [organisationId]);
    return rows.map((row) => row.id);
  }

  /** Ids of the records in the project, locked for the transaction (the project is being deleted). */
  async recordIdsIn(manager: EntityManager, groupId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await manager.query('SELECT id FROM catalogue.records WHERE group_ids @> ARRAY[$1]::text[] ORDER BY id FOR UPDATE', [
      groupId,
    ]);
    return rows.map((row) => row.id);
  }
}
