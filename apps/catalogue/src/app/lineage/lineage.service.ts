import { Injectable } from '@nestjs/common';
import {
  createEvent,
  isRestrictingTerms,
  isUuid,
  type MergeCompleted,
  permissionsOfGroups,
  RecordUpdated,
  type RecordViewer,
  sourceTermsFor,
} from '@dc/contracts';
import { type AuthUser, currentCorrelationId, type FieldErrors, notFound } from '@dc/platform';
import type { z } from 'zod';
import { recordSnapshot } from '../record-model/record-events';
import type { CatalogueRecord } from '../record-model/record';
import { isDataAdminOf, permissionsFor, type Viewer } from '../record-model/record-access';
import { RecordRequests } from '../record-model/record-requests';
import { forbidden } from '../record-model/records.errors';
import { RecordsRepository } from '../record-store/records.repository';
import { isRestricted, type LineageLink, linksOfDerivative, type MergedSource, strongestTerms, whyLinkBlocks, wideningRefused } from './lineage';
import { LineageRepository, type DerivativeRow } from './lineage.repository';
import type { DerivativeView, LineageView } from './lineage-view';

type MergeCompletedPayload = z.output<typeof MergeCompleted.payload>;

/** A link with whether it still lets the derivative be downloaded. */
export interface LinkStanding {
  link: LineageLink;
  /** null: it holds. */
  blocks: string | null;
}

export const DERIVATIVE_REVOKED = 'The derivative was revoked: its maker can no longer download its data.';

const derivativeView = (row: DerivativeRow): DerivativeView => ({
  id: row.id,
  name: row.name,
  user: row.makerUsername,
  date_created: row.createdAt.toISOString(),
  terms: strongestTerms(row.terms),
  revoked: row.revokedAt !== null,
  date_revoked: row.revokedAt?.toISOString() ?? null,
});

/**
 * Lineage (docs/metadata-before-access.md, "Lineage"): records the sources of each merge result with
 * their terms, decides whether a derivative may still be downloaded and whether its visibility may
 * be widened, and shows and revokes a source's derivatives for its owner side. Rules in lineage.ts;
 * I/O in the repositories.
 */
@Injectable()
export class LineageService {
  constructor(
    private readonly lineage: LineageRepository,
    private readonly requests: RecordRequests,
    private readonly records: RecordsRepository,
  ) {}

  /**
   * The links of a merge's result record. Terms come with the event; an event from before lineage
   * has none, and they are decided here from the sources as they are now (a source gone meanwhile
   * counts as granted, so the result stays its maker's and cannot be downloaded).
   */
  async linksOfMerge(merge: MergeCompletedPayload, now: Date): Promise<LineageLink[]> {
    const maker: RecordViewer = {
      id: merge.owner.userId,
      organisationId: merge.owner.organisationId,
      groups: merge.owner.groups,
      permissions: permissionsOfGroups(merge.owner.groups),
    };
    const sources: MergedSource[] = [];
    for (const source of merge.sources) {
      if (source.terms) {
        sources.push({ recordId: source.recordId, name: source.name, terms: source.terms, requestId: source.terms === 'grant' ? source.requestId : null });
        continue;
      }
      const record = await this.records.store.findRecord(source.recordId);
      const terms = record ? sourceTermsFor(record, maker) : 'grant';
      const grant = record && terms === 'grant' ? await this.requests.activeGrant(record.id, maker.id) : null;
      sources.push({ recordId: source.recordId, name: source.name, terms, requestId: grant?.requestId ?? null });
    }
    const inherited = await this.lineage.linksOf(sources.map((s) => s.recordId));
    return linksOfDerivative(merge.recordId, maker.id, now, sources, inherited);
  }

  isRestricted(links: LineageLink[]): boolean {
    return isRestricted(links);
  }

  save(links: LineageLink[]): Promise<void> {
    return this.lineage.insert(links);
  }

  /** Each link of the record with whether it holds now; none for records not made from others (only merges are). */
  async standing(record: CatalogueRecord): Promise<LinkStanding[]> {
    if (record.origin !== 'merge') return [];
    const store = this.records.store;
    const links = await this.lineage.linksOf([record.id]);
    if (links.length === 0) return [];
    const maker = await store.directoryUser(record.ownerId);
    const makerViewer: RecordViewer | null =
      maker && !maker.deleted
        ? { id: maker.id, organisationId: maker.organisationId, groups: maker.groups, permissions: permissionsOfGroups(maker.groups) }
        : null;
    const standing: LinkStanding[] = [];
    for (const link of links) {
      // Only links under open or grant terms depend on their source as it is now.
      const source = !link.revokedAt && isRestrictingTerms(link.terms) ? await store.findRecord(link.sourceRecordId) : null;
      const grant = source && link.terms === 'grant' ? await this.requests.activeGrant(source.id, link.makerId) : null;
      standing.push({ link, blocks: whyLinkBlocks(link, { source, maker: makerViewer, activeRequestId: grant?.requestId ?? null }) });
    }
    return standing;
  }

  /** Why the record's data may not be downloaded now (its first link that no longer holds), or null. */
  async downloadBlocked(record: CatalogueRecord): Promise<string | null> {
    return (await this.standing(record)).find((s) => s.blocks)?.blocks ?? null;
  }

  /** The `lineage` of a record's details: for those who may edit it, when it was made from others. */
  lineageView(record: CatalogueRecord, standing: LinkStanding[], viewer: Viewer): LineageView {
    if (standing.length === 0 || !permissionsFor(record, viewer).edit) return null;
    return {
      restricted: record.ownerOnly,
      download_blocked: standing.find((s) => s.blocks)?.blocks ?? null,
      sources: standing.map(({ link, blocks }) => ({
        id: link.sourceRecordId,
        name: link.sourceName,
        terms: link.terms,
        via: link.viaRecordId,
        revoked: link.revokedAt !== null,
        holds: blocks === null,
        reason: blocks,
      })),
    };
  }

  /** The `derivatives` of a record's details: for its owner and its organisation's Data Admins; empty for everyone else. */
  async derivativesView(record: CatalogueRecord, viewer: Viewer): Promise<DerivativeView[]> {
    if (!this.isOwnerSide(record, viewer)) return [];
    return (await this.lineage.derivativesOf(record.id)).map(derivativeView);
  }

  /** Field errors for a change that would show or open an owner-only derivative to others (none otherwise). */
  async refusalToWiden(
    record: CatalogueRecord,
    change: { visibility?: string; access?: string },
    fields: { visibility: string; access: string },
  ): Promise<FieldErrors> {
    const widens = { visibility: !!change.visibility && change.visibility !== 'PR', access: change.access === 'OP' };
    if (!record.ownerOnly || (!widens.visibility && !widens.access)) return {};
    const message = wideningRefused(await this.lineage.linksOf([record.id]));
    return { ...(widens.visibility && { [fields.visibility]: [message] }), ...(widens.access && { [fields.access]: [message] }) };
  }

  /**
   * POST /api/records/{id}/derivatives/{derivedId}/revoke/: the source's owner side stops a
   * derivative (and whatever was made from it since) from being downloaded, for good. 404 when the
   * source is hidden from the caller or the record is not its derivative, 403 for others who see it.
   */
  async revoke(sourceId: string, derivedId: string, user: AuthUser): Promise<{ detail: string; derivative: DerivativeView }> {
    if (!isUuid(sourceId) || !isUuid(derivedId)) throw notFound();
    return this.records.transaction(async (store) => {
      const source = await store.findRecord(sourceId, { forUpdate: true });
      if (!source || !permissionsFor(source, user).view) throw notFound();
      if (!this.isOwnerSide(source, user)) throw forbidden();
      const derivative = (await this.lineage.derivativesOf(source.id)).find((d) => d.id === derivedId);
      if (!derivative) throw notFound();
      const revoked = await this.lineage.revoke(source.id, derivedId, user.id, new Date());
      // Their events carry the revoked links (derivedFrom), so relations stops reading their values too.
      for (const id of revoked) {
        const record = await store.findRecord(id);
        if (record)
          await store.publish(createEvent(RecordUpdated, id, recordSnapshot(record, await store.files(id)), { correlationId: currentCorrelationId() }));
      }
      const updated = (await this.lineage.derivativesOf(source.id)).find((d) => d.id === derivedId)!;
      return { detail: DERIVATIVE_REVOKED, derivative: derivativeView(updated) };
    });
  }

  private isOwnerSide(record: CatalogueRecord, viewer: Viewer): boolean {
    return !!viewer && permissionsFor(record, viewer).view && (viewer.id === record.ownerId || isDataAdminOf(viewer, record.organisationId));
  }
}
