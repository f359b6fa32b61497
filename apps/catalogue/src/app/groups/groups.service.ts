import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createEvent, isUuid, RecordUpdated } from '@dc/contracts';
import { AuthUser, currentCorrelationId, FieldErrors, FieldValidationError, invalidPk, notFound } from '@dc/platform';
import type { CatalogueRecord } from '../record-model/record';
import { canView } from '../record-model/record-access';
import { recordSnapshot } from '../record-model/record-events';
import { forbidden } from '../record-model/records.errors';
import { RecordStore, RecordsRepository } from '../record-store/records.repository';
import { canManageGroup, isMemberOf } from '../record-model/sharing-rules';
import type { z } from 'zod';
import type { CreateGroupDto, UpdateGroupDto, groupViewSchema } from './dto/group.dto';
import type { Group } from './group';
import { GroupsRepository } from './groups.repository';

/** A project as the Groups page shows it (spec section 3, Group/project: fields as a label to text map). */
export function groupView(group: Group, user: AuthUser, recordCount: number): GroupView {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    created: group.created.toISOString(),
    changed: group.changed.toISOString(),
    fields: Object.fromEntries(group.fields.map((f) => [f.label, f.text])),
    owner: group.ownerUsername,
    owner_id: group.ownerId,
    can_edit: canManageGroup(user, group),
    record_count: recordCount,
  };
}
export type GroupView = z.output<typeof groupViewSchema>;

/**
 * Projects (groups) of an organisation: its members see them, create them and file records they may
 * see into them; a project's creator and the organisation's Data Admins rename and delete it. A
 * record's membership is kept on the record (group_ids, in its events, for the search `group`
 * filter) and never widens who may see it.
 */
@Injectable()
export class GroupsService {
  constructor(
    private readonly records: RecordsRepository,
    private readonly groups: GroupsRepository,
  ) {}

  /** GET /api/groups/: `{status, groups, checked}`; with `record`, checked = the projects holding it. */
  async list(user: AuthUser, recordId: string | undefined) {
    return this.records.read(async (store) => {
      let checked: string[] = [];
      if (recordId !== undefined) {
        const record = isUuid(recordId) ? await store.findRecord(recordId.toLowerCase()) : null;
        if (!record || !canView(record, user)) throw notFound();
        checked = record.groupIds;
      }
      const groups = await this.groups.list(user.organisationId);
      const counts = await this.groups.visibleRecordCounts(
        groups.map((g) => g.id),
        { id: user.id, organisationId: user.organisationId },
      );
      return {
        status: 'success',
        groups: groups.map((g) => groupView(g, user, counts.get(g.id) ?? 0)),
        checked: groups.filter((g) => checked.includes(g.id)).map((g) => g.id),
      };
    });
  }

  get(id: string, user: AuthUser): Promise<GroupView> {
    return this.records.read(async () => this.view(await this.visible(id, user), user));
  }

  /** Any member of an organisation may start a project. */
  create(user: AuthUser, dto: CreateGroupDto): Promise<GroupView> {
    const now = new Date();
    const group = {
      id: randomUUID(),
      organisationId: user.organisationId,
      ownerId: user.id,
      name: dto.groupName,
      description: dto.groupDescription ?? '',
      fields: dto.groupFields ?? [],
      created: now,
      changed: now,
    };
    return this.records.transaction(async (store) => {
      await store.rememberCaller(user);
      await this.groups.insert(group);
      return this.view((await this.groups.find(group.id))!, user);
    });
  }

  /**
   * PUT /api/groups/{id}/: name, description and fields (its creator or a Data Admin), and records
   * to add or remove (any member, for records they may see). All or nothing.
   */
  update(id: string, user: AuthUser, dto: UpdateGroupDto): Promise<GroupView> {
    return this.records.transaction(async (store) => {
      const group = await this.visible(id, user, { forUpdate: true });
      const edits = dto.groupName !== undefined || dto.groupDescription !== undefined || dto.groupFields !== undefined;
      if (edits && !canManageGroup(user, group)) throw forbidden();
      const now = new Date();
      if (edits) {
        const next = {
          ...group,
          name: dto.groupName ?? group.name,
          description: dto.groupDescription ?? group.description,
          fields: dto.groupFields ?? group.fields,
          changed: now,
        };
        if (JSON.stringify([next.name, next.description, next.fields]) !== JSON.stringify([group.name, group.description, group.fields]))
          await this.groups.update(next);
      }
      if (dto.addRecordIds?.length || dto.removeRecordIds?.length) {
        if (await this.file(store, group.id, user, dto.addRecordIds ?? [], dto.removeRecordIds ?? [])) await this.groups.touch(group.id, now);
      }
      return this.view((await this.groups.find(group.id))!, user);
    });
  }

  /** DELETE /api/groups/{id}/: the project goes, and every record leaves it. */
  async remove(id: string, user: AuthUser): Promise<void> {
    const correlationId = currentCorrelationId();
    await this.records.transaction(async (store) => {
      const group = await this.visible(id, user, { forUpdate: true });
      if (!canManageGroup(user, group)) throw forbidden();
      for (const recordId of await this.groups.recordIdsIn(group.id)) {
        const record = (await store.findRecord(recordId))!;
        await this.setGroups(
          store,
          record,
          record.groupIds.filter((g) => g !== group.id),
          correlationId,
        );
      }
      await this.groups.delete(group.id);
    });
  }

  /**
   * The project ids a record editor sets through PUT /api/records/{id}/ `groups`: the editor's own
   * organisation's projects are replaced by the given ones, other organisations' memberships stay.
   * Unknown ids, and other organisations' projects, are refused.
   */
  async recordGroupsFor(user: AuthUser, current: string[], requested: string[]): Promise<string[]> {
    const own = new Set(await this.groups.idsOf(user.organisationId));
    const unknown = requested.filter((id) => !own.has(id));
    if (unknown.length) throw new FieldValidationError({ groups: unknown.map(invalidPk) });
    return [...current.filter((id) => !own.has(id)), ...requested];
  }

  /** Adds and removes records; false when nothing changed. Records the caller may not see are refused as unknown. */
  private async file(store: RecordStore, groupId: string, user: AuthUser, add: string[], remove: string[]): Promise<boolean> {
    const errors: FieldErrors = {};
    const records = new Map<string, CatalogueRecord>();
    for (const [field, ids] of [
      ['addRecordIds', add],
      ['removeRecordIds', remove],
    ] as const) {
      for (const id of ids) {
        const record = isUuid(id) ? (records.get(id) ?? (await store.findRecord(id, { forUpdate: true }))) : null;
        if (!record || !canView(record, user)) (errors[field] ??= []).push(invalidPk(id));
        else records.set(id, record);
      }
    }
    if (Object.keys(errors).length) throw new FieldValidationError(errors);
    const correlationId = currentCorrelationId();
    let changed = false;
    for (const record of records.values()) {
      const without = record.groupIds.filter((g) => g !== groupId);
      const next = remove.includes(record.id) ? without : add.includes(record.id) ? [...without, groupId] : record.groupIds;
      if (next.length === record.groupIds.length && next.every((g) => record.groupIds.includes(g))) continue;
      await this.setGroups(store, record, next, correlationId);
      changed = true;
    }
    return changed;
  }

  /** Saves a record's projects and tells the others (search filters by them). */
  private async setGroups(store: RecordStore, record: CatalogueRecord, groupIds: string[], correlationId: string | undefined): Promise<void> {
    await store.setGroups(record.id, groupIds);
    const saved = (await store.findRecord(record.id))!;
    await store.publish(createEvent(RecordUpdated, saved.id, recordSnapshot(saved, await store.files(saved.id)), { correlationId }));
  }

  private async visible(id: string, user: AuthUser, options: { forUpdate?: boolean } = {}): Promise<Group> {
    const group = isUuid(id) ? await this.groups.find(id.toLowerCase(), options) : null;
    if (!group || !isMemberOf(user, group.organisationId)) throw notFound();
    return group;
  }

  private async view(group: Group, user: AuthUser): Promise<GroupView> {
    const counts = await this.groups.visibleRecordCounts([group.id], { id: user.id, organisationId: user.organisationId });
    return groupView(group, user, counts.get(group.id) ?? 0);
  }
}
