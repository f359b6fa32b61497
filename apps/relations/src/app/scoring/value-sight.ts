// Which column values may take part in a figure shown to someone (docs/metadata-before-access.md,
// "Relations"). A figure computed from values (containment, Jaccard, join and link scores, match
// counts, NRMSD of quantiles, words of cells) answers a yes/no question about a cell to whoever
// controls the other side of the comparison: upload a probe holding a guessed value and read the
// overlap. So values take part only where the caller could read them anyway: records they may
// download, and hashed columns (their keyed hashes are in META already, and only holders of the
// linkage key can make a probe that matches). Everything else is compared by headers and types.
import type { SketchedRecord } from '../records/related-record';

/**
 * The record as a caller who may not read its values sees it for comparison: every column that is
 * not hashed loses its value hashes, numbers and words (so no figure can be computed from them,
 * whatever the scoring does), and the record says its values are withheld.
 */
export function withheldValues(record: SketchedRecord): SketchedRecord {
  return {
    ...record,
    valuesWithheld: true,
    files: record.files.map((file) => ({
      ...file,
      tables: file.tables.map((table) => ({
        ...table,
        columns: table.columns.map((column) => (column.privacy === 'hashed' ? column : { ...column, minhash: [], numeric: null, words: [] })),
      })),
    })),
  };
}

/** The record with its values for a caller who may read them, without them otherwise. */
export function sightedBy(record: SketchedRecord, mayReadValues: boolean): SketchedRecord {
  return mayReadValues ? record : withheldValues(record);
}

/**
 * top_related is kept once for every viewer, so its figures may use only values that every viewer
 * of the entry may read, or that nobody but their owner controls: both records of one owner (no one
 * else can shape either side), or a record whose access is Open (whoever sees it may download it).
 * A derivative of someone else's data (ownerOnly) never lends its values, not even to its maker's
 * other records: its data may stop being theirs (docs/metadata-before-access.md, "Lineage").
 */
export function publicSight(record: SketchedRecord, other: SketchedRecord): SketchedRecord {
  const own = (r: SketchedRecord) => !r.record.ownerOnly;
  const sameOwner = record.record.ownerId === other.record.ownerId && own(record) && own(other);
  return sightedBy(record, sameOwner || (record.record.access === 'OP' && own(record)));
}
