import { Injectable } from '@nestjs/common';
import { isUuid, pageOf } from '@dc/contracts';
import { AuthUser, currentCorrelationId, FieldErrors, FieldValidationError, invalidPk, notFound } from '@dc/platform';
import { toRecordsPage } from '@dc/search-index';
import { LineageService } from '../lineage/lineage.service';
import type { CatalogueRecord } from '../record-model/record';
import { isDataAdminOf, ownerClientTypeOf, permissionsFor } from '../record-model/record-access';
import { VisibilityView, visibilityView } from '../record-view/record-view';
import { BASIC_VISIBILITY_FIXED, forbidden } from '../record-model/records.errors';
import { RecordStore, RecordsRepository } from '../record-store/records.repository';
import type { VisibilityDto } from './visibility.dto';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface VisibilityListQuery {
  associated_record?: string;
  record?: string;
  page?: string;
  page_size?: string;
}

/**
 * A record's Visibility object (spec section 3): one per record, its id is the record's
 * visibility_id. Only those who may edit the record see or change it.
 */
@Injectable()
export class VisibilityService {
  constructor(
    private readonly records: RecordsRepository,
    private readonly lineage: LineageService,
  ) {}

  /** The visibilities of records the caller may edit, paged; `associated_record` narrows to one record. */
  async list(user: AuthUser, query: VisibilityListQuery, baseUrl: string) {
    const { page, pageSize } = pageOf(query, { size: DEFAULT_PAGE_SIZE, max: MAX_PAGE_SIZE });
    const recordId = query.associated_record ?? query.record;
    return this.records.read(async (store) => {
      if (recordId !== undefined) {
        const record = isUuid(recordId) ? await store.findRecord(recordId) : null;
        const results = record && permissionsFor(record, user).edit ? [await this.view(store, record, user)] : [];
        return toRecordsPage({ count: results.length, results }, { baseUrl, page: 1, pageSize });
      }
      const organisationId = isDataAdminOf(user, user.organisationId) ? user.organisationId : null;
      const { count, records } = await store.editableRecords(user.id, organisationId, { offset: (page - 1) * pageSize, limit: pageSize });
      const results: VisibilityView[] = [];
      for (const record of records) results.push(await this.view(store, record, user));
      return toRecordsPage({ count, results }, { baseUrl, page, pageSize });
    });
  }

  async get(visibilityId: string, user: AuthUser): Promise<VisibilityView> {
    if (!isUuid(visibilityId)) throw notFound();
    return this.records.read(async (store) => {
      const record = await store.findRecordByVisibilityId(visibilityId);
      const permissions = record && permissionsFor(record, user);
      if (!record || !permissions?.view) throw notFound();
      if (!permissions.edit) throw forbidden();
      return this.view(store, record, user);
    });
  }

  /** POST: sets the visibility of associated_record (each record has exactly one). */
  async create(user: AuthUser, dto: VisibilityDto): Promise<VisibilityView> {
    const recordId = dto.associated_record;
    if (!recordId) throw new FieldValidationError({ associated_record: ['This field is required.'] });
    return this.records.transaction(async (store) => {
      const record = isUuid(recordId) ? await store.findRecord(recordId, { forUpdate: true }) : null;
      const permissions = record && permissionsFor(record, user);
      // An id the caller may not see is answered like an unknown one.
      if (!record || !permissions?.view) throw new FieldValidationError({ associated_record: [invalidPk(recordId)] });
      if (!permissions.edit) throw forbidden();
      return this.apply(store, record, user, dto);
    });
  }

  /** PUT /api/visibilities/{id}/. */
  async update(visibilityId: string, user: AuthUser, dto: VisibilityDto): Promise<VisibilityView> {
    if (!isUuid(visibilityId)) throw notFound();
    return this.records.transaction(async (store) => {
      const record = await store.findRecordByVisibilityId(visibilityId, { forUpdate: true });
      const permissions = record && permissionsFor(record, user);
      if (!record || !permissions?.view) throw notFound();
      if (!permissions.edit) throw forbidden();
      if (dto.associated_record !== undefined && dto.associated_record !== record.id)
        throw new FieldValidationError({ associated_record: ['A visibility stays with its record.'] });
      return this.apply(store, record, user, dto);
    });
  }

  private async apply(store: RecordStore, record: CatalogueRecord, user: AuthUser, dto: VisibilityDto): Promise<VisibilityView> {
    const errors: FieldErrors = {};
    if (dto.visibility_selection !== 'EV' && !record.ownerOnly && ownerClientTypeOf(record, user) === 'BASIC')
      errors.visibility_selection = [BASIC_VISIBILITY_FIXED];
    Object.assign(
      errors,
      await this.lineage.refusalToWiden(record, { visibility: dto.visibility_selection }, { visibility: 'visibility_selection', access: 'access' }),
    );
    const custom = dto.visibility_selection === 'CU';
    const userIds = custom ? dto.users_with_visibility : [];
    const organisationIds = custom ? dto.organisations_with_visibility : [];
    const users = await store.knownUsers(userIds);
    const organisations = await store.knownOrganisations(organisationIds);
    const unknownUsers = userIds.filter((id) => !users.some((u) => u.id === id));
    const unknownOrganisations = organisationIds.filter((id) => !organisations.some((o) => o.id === id));
    if (unknownUsers.length) errors.users_with_visibility = [`Unknown user(s): ${unknownUsers.join(', ')}.`];
    if (unknownOrganisations.length) errors.organisations_with_visibility = [`Unknown organisation(s): ${unknownOrganisations.join(', ')}.`];
    if (Object.keys(errors).length) throw new FieldValidationError(errors);

    const saved = await store.saveEdited(
      record,
      { ...record, visibility: dto.visibility_selection, sharedUserIds: [...userIds].sort(), sharedOrganisationIds: [...organisationIds].sort() },
      currentCorrelationId(),
    );
    return visibilityView(saved, { users, organisations }, ownerClientTypeOf(saved, user));
  }

  private async view(store: RecordStore, record: CatalogueRecord, user: AuthUser): Promise<VisibilityView> {
    const custom = record.visibility === 'CU';
    const users = custom ? await store.knownUsers(record.sharedUserIds) : [];
    const organisations = custom ? await store.knownOrganisations(record.sharedOrganisationIds) : [];
    return visibilityView(record, { users, organisations }, ownerClientTypeOf(record, user));
  }
}
