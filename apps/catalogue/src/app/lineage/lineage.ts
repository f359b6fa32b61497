import { isRestrictingTerms, type LinkStanding, linkStanding, type RecordAccessFacts, type RecordViewer, type SourceTerms } from '@dc/contracts';

/**
 * Lineage rules, free of I/O (docs/metadata-before-access.md, "Lineage"): a derived record links to
 * every record it was made from, with the terms its maker read each under. A link under `open` or
 * `grant` terms makes the derivative its maker's alone (ownerOnly) and lets it be downloaded only
 * while the maker may still download that source; a revoked link blocks its download for good.
 */
export interface LineageLink {
  derivedRecordId: string;
  sourceRecordId: string;
  /** As the source was named when the derivative was made: it still names a removed source. */
  sourceName: string;
  makerId: string;
  terms: SourceTerms;
  requestId: string | null;
  /** Inherited links: the derivative of the source this record was made from; null when read directly. */
  viaRecordId: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

/** A source as a merge names it, with the terms it was read under. */
export interface MergedSource {
  recordId: string;
  name: string;
  terms: SourceTerms;
  requestId: string | null;
}

/**
 * The links of a new derivative: one per source read directly, and every link of a source that is
 * itself a derivative (flattened), so a derivative of a derivative keeps the original sources'
 * terms, revocations included. The maker of every link is the new record's maker: a grant holds
 * only for the one it was given to.
 */
export function linksOfDerivative(derivedRecordId: string, makerId: string, now: Date, sources: MergedSource[], inherited: LineageLink[]): LineageLink[] {
  const links = new Map<string, LineageLink>();
  // One link per source and terms (and request): the first way it was reached names it, a revocation on any way stays.
  const add = (link: LineageLink) => {
    const key = `${link.sourceRecordId}|${link.terms}|${link.requestId ?? ''}`;
    const known = links.get(key);
    if (!known) links.set(key, link);
    else if (!known.revokedAt && link.revokedAt) links.set(key, { ...known, revokedAt: link.revokedAt });
  };
  for (const source of sources) {
    add({
      derivedRecordId,
      sourceRecordId: source.recordId,
      sourceName: source.name,
      makerId,
      terms: source.terms,
      requestId: source.requestId,
      viaRecordId: null,
      createdAt: now,
      revokedAt: null,
    });
    for (const link of inherited.filter((l) => l.derivedRecordId === source.recordId)) {
      add({ ...link, derivedRecordId, makerId, viaRecordId: source.recordId, createdAt: now });
    }
  }
  return [...links.values()];
}

/** Whether the derivative is its maker's alone: a source (direct or inherited) was shared with them, not published. */
export const isRestricted = (links: Pick<LineageLink, 'terms'>[]) => links.some((link) => isRestrictingTerms(link.terms));

/** What a link's standing depends on now, besides the link itself. */
export interface SourceFacts {
  /** null: the source was removed. */
  source: RecordAccessFacts | null;
  /** The maker as the directory knows them now (null: gone). */
  maker: RecordViewer | null;
  /** The id of the maker's request that grants download of the source now, if any. */
  activeRequestId: string | null;
}

const blocked = (name: string, why: string) => `This record was made from ${name}, ${why}; its data can no longer be downloaded.`;
export const revokedBecause = (name: string) => blocked(name, 'whose owner revoked its use in this record');
export const grantEndedBecause = (name: string) => blocked(name, 'whose access grant has ended');
export const removedBecause = (name: string) => blocked(name, 'which was removed from the product');
export const closedBecause = (name: string) => blocked(name, 'which is no longer open to you');

const BECAUSE: Record<Exclude<LinkStanding, 'holds'>, (name: string) => string> = {
  revoked: revokedBecause,
  removed: removedBecause,
  'grant-ended': grantEndedBecause,
  closed: closedBecause,
};

/** Why the link stops the derivative's download now, or null when it holds (the rule: linkStanding, libs/contracts). */
export function whyLinkBlocks(link: LineageLink, facts: SourceFacts): string | null {
  const standing = linkStanding({ terms: link.terms, requestId: link.requestId, revoked: link.revokedAt !== null }, facts);
  return standing === 'holds' ? null : BECAUSE[standing](`"${link.sourceName}"`);
}

const TERMS_EXPLAINED: Record<SourceTerms, string> = {
  own: 'yours',
  public: 'open to everyone',
  open: 'open to you, not to everyone',
  grant: 'shared with you through your approved request',
};

export const explainTerms = (terms: SourceTerms) => TERMS_EXPLAINED[terms];

/** Why an owner-only derivative's visibility or access cannot be widened, naming the sources that keep it so. */
export function wideningRefused(links: Pick<LineageLink, 'sourceName' | 'terms'>[]): string {
  const named = new Map<string, SourceTerms>();
  for (const link of links.filter((l) => isRestrictingTerms(l.terms))) if (!named.has(link.sourceName)) named.set(link.sourceName, link.terms);
  const sources = [...named].map(([name, terms]) => `"${name}" (${explainTerms(terms)})`).join(', ');
  return `This record was made from ${sources}: data shared with you alone stays yours alone, so its visibility and access cannot be widened.`;
}

/** The strongest terms among links to one source: a grant restricts most, own data least. */
export function strongestTerms(terms: SourceTerms[]): SourceTerms {
  const order: SourceTerms[] = ['grant', 'open', 'public', 'own'];
  return order.find((t) => terms.includes(t)) ?? 'own';
}
