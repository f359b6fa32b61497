import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { createEvent, isUuid, RecordDeleted, RecordUpdated } from '@dc/contracts';
import { AuthUser, currentCorrelationId, FieldErrors, FieldValidationError, invalidPk, notFound, toFieldErrors } from '@dc/platform';
import { GroupsRepository } from '../groups/groups.repository';
import { GroupsService } from '../groups/groups.service';
import { LineageService } from '../lineage/lineage.service';
import { PoliciesRepository } from '../policies/policies.repository';
import type { CatalogueRecord } from '../record-model/record';
import { ownerClientTypeOf, permissionsFor, type Viewer } from '../record-model/record-access';
import { recordSnapshot } from '../record-model/record-events';
import { nameField } from '../record-model/record-fields';
import { RecordRequests, type ShownRequestStatus } from '../record-model/record-requests';
import { BASIC_POLICY_REFUSED, BASIC_VISIBILITY_FIXED, forbidden } from '../record-model/records.errors';
import { type RecordStore, RecordsRepository } from '../record-store/records.repository';
import { fileView, recordViewFor, type RecordView, visibilityView } from '../record-view/record-view';
import { PendingObjects } from '../recovery/pending-objects';
import { topRelatedFor } from '../related/top-related';
import { TopRelatedRepository } from '../related/top-related.repository';
import type { UpdateRecordDto } from './dto/update-record.dto';

/**
 * Records once made: details, edit, delete and file renames. Creation is record-creation's, download
 * links and downloads are downloads'. Rules here; I/O in the repositories, in one unit of work.
 */
@Injectable()
export class RecordsService {
  constructor(
    private readonly records: RecordsRepository,
    private readonly requests: RecordRequests,
    private readonly policies: PoliciesRepository,
    private readonly groups: GroupsRepository,
    private readonly groupsService: GroupsService,
    private readonly related: TopRelatedRepository,
    private readonly pending: PendingObjects,
    private readonly lineage: LineageService,
  ) {}

  /** GET /api/records/{id}: whoever may see the record; everyone else gets 404. */
  async details(id: string, viewer: Viewer): Promise<RecordView> {
    if (!isUuid(id)) throw notFound();
    return this.records.read(async (store) => {
      const record = await store.findRecord(id);
      if (!record || !permissionsFor(record, viewer).view) throw notFound();
      return this.viewOf(store, record, viewer);
    });
  }

  /** PUT /api/records/{id}/: the owner, or whoever may edit it (Data Admins of its organisation). */
  async update(id: string, user: AuthUser, dto: UpdateRecordDto): Promise<RecordView> {
    if (!isUuid(id)) throw notFound();
    const correlationId = currentCorrelationId();
    return this.records.transaction(async (store) => {
      const record = await this.editable(store, id, user);
      const errors: FieldErrors = {};
      if (user.clientType === 'BASIC' && dto.policy) errors.policy = [BASIC_POLICY_REFUSED];
      if (dto.visibility && dto.visibility !== 'EV' && !record.ownerOnly && ownerClientTypeOf(record, user) === 'BASIC')
        errors.visibility = [BASIC_VISIBILITY_FIXED];
      Object.assign(errors, await this.lineage.refusalToWiden(record, dto, { visibility: 'visibility', access: 'access' }));
      // A record's policy is one of its organisation's.
      if (!errors.policy && dto.policy && dto.policy !== record.policyId && !(await this.policies.belongsTo(dto.policy, record.organisationId)))
        errors.policy = [invalidPk(dto.policy)];
      let groupIds = record.groupIds;
      if (dto.groups) {
        try {
          groupIds = await this.groupsService.recordGroupsFor(user, record.groupIds, dto.groups);
        } catch (error) {
          if (!(error instanceof FieldValidationError)) throw error;
          Object.assign(errors, error.getResponse());
        }
      }
      if (Object.keys(errors).length) throw new FieldValidationError(errors);

      const next: CatalogueRecord = {
        ...record,
        name: dto.name ?? record.name,
        altName: dto.alt_name ?? record.altName,
        description: dto.description ?? record.description,
        provenance: dto.provenance ?? record.provenance,
        source: dto.source ?? record.source,
        recordFields: dto.recordFields ?? dto.RECORD ?? record.recordFields,
        access: dto.access ?? record.access,
        accessFee: dto.accessFee === undefined ? record.accessFee : dto.accessFee,
        currency: dto.currency ?? record.currency,
        policyId: dto.policy === undefined ? record.policyId : dto.policy,
        groupIds,
      };
      if (dto.visibility) {
        next.visibility = dto.visibility;
        // The custom lists apply to CU only; they are set through /api/visibilities/.
        if (dto.visibility !== 'CU') Object.assign(next, { sharedUserIds: [], sharedOrganisationIds: [] });
      }
      const saved = await store.saveEdited(record, next, correlationId);
      return this.viewOf(store, saved, user);
    });
  }

  /** DELETE /api/records/{id}/: the record, its files and their objects; record.deleted tells the others. */
  async remove(id: string, user: AuthUser): Promise<void> {
    if (!isUuid(id)) throw notFound();
    const correlationId = currentCorrelationId();
    const keys = await this.records.transaction(async (store) => {
      const record = await store.findRecord(id, { forUpdate: true });
      const permissions = record && permissionsFor(record, user);
      if (!record || !permissions?.view) throw notFound();
      if (!permissions.delete) throw forbidden();
      const removed = await store.deleteRecord(id);
      // Deleted after the commit; should the process die first, the sweep deletes them.
      await this.pending.deleting(removed);
      await store.publish(createEvent(RecordDeleted, id, { recordId: id, ownerId: record.ownerId, organisationId: record.organisationId }, { correlationId }));
      return removed;
    });
    await this.pending.remove(keys);
  }

  /** PUT /api/files/{id}/: renames a file of a record the caller may edit. */
  async renameFile(fileId: string, user: AuthUser, body: unknown) {
    if (!isUuid(fileId)) throw notFound();
    const parsed = z.object({ name: nameField }, { error: 'Expected a JSON object.' }).safeParse(body ?? {});
    const correlationId = currentCorrelationId();
    return this.records.transaction(async (store) => {
      const file = await store.findFile(fileId);
      if (!file) throw notFound();
      const record = await this.editable(store, file.recordId, user);
      if (!parsed.success) throw new FieldValidationError(toFieldErrors(parsed.error));
      if (parsed.data.name !== file.name) {
        await store.renameFile(file.id, parsed.data.name);
        await store.touchRecord(record.id, new Date());
        const touched = (await store.findRecord(record.id))!;
        await store.publish(createEvent(RecordUpdated, record.id, recordSnapshot(touched, await store.files(record.id)), { correlationId }));
      }
      // An editor may download, unless the record is a derivative whose sources no longer allow it (then: as anyone).
      const blocked = (await this.lineage.standing(record)).some((s) => s.blocks);
      return fileView((await store.findFile(file.id))!, permissionsFor(record, user).download && !blocked);
    });
  }

  /** The record if the caller may edit it: 404 when they may not even see it, 403 when they only see it. */
  private async editable(store: RecordStore, id: string, user: AuthUser): Promise<CatalogueRecord> {
    const record = await store.findRecord(id, { forUpdate: true });
    const permissions = record && permissionsFor(record, user);
    if (!record || !permissions?.view) throw notFound();
    if (!permissions.edit) throw forbidden();
    return record;
  }

  private async viewOf(store: RecordStore, record: CatalogueRecord, viewer: Viewer): Promise<RecordView> {
    const files = await store.files(record.id);
    const requestStatus = await this.requestStatus(record, viewer);
    const names = {
      policyName: await this.policies.nameOf(record.policyId),
      groups: viewer ? await this.groups.namesIn(viewer.organisationId, record.groupIds) : [],
    };
    const permissions = permissionsFor(record, viewer);
    let visibility = null;
    if (permissions.edit) {
      const shared =
        record.visibility === 'CU'
          ? { users: await store.knownUsers(record.sharedUserIds), organisations: await store.knownOrganisations(record.sharedOrganisationIds) }
          : { users: [], organisations: [] };
      visibility = visibilityView(record, shared, ownerClientTypeOf(record, viewer));
    }
    // The related records relations keeps for this one, as far as this viewer may see them.
    const topRelated = topRelatedFor(await this.related.candidates(record.id), viewer);
    const standing = await this.lineage.standing(record);
    const lineage = {
      blocked: standing.some((s) => s.blocks),
      lineage: this.lineage.lineageView(record, standing, viewer),
      derivatives: await this.lineage.derivativesView(record, viewer),
    };
    return recordViewFor(record, files, viewer, { visibility, requestStatus, names, topRelated, lineage });
  }

  /** The caller's request for the record (owners never request their own). */
  private async requestStatus(record: CatalogueRecord, viewer: Viewer): Promise<ShownRequestStatus | null> {
    if (!viewer || viewer.id === record.ownerId) return null;
    return this.requests.statusOf(record.id, viewer.id);
  }
}
