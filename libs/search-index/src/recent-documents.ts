import type { RecordDocument } from './search-index';

/**
 * The documents of recently answered pages, each with the number of the write that stored it, so
 * a page reads from the store only the documents it does not find here. A document never changes
 * under its write number (a change is a new write with a new number), so one kept here is good for
 * as long as a ranking names that number; a record written since is read again and replaces it.
 * The oldest kept is let go first. Kept documents are frozen: every search that finds one shares it.
 */
export class RecentDocuments {
  private readonly byId = new Map<string, { seq: number; doc: RecordDocument }>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.byId.size;
  }

  /** The document of the record as the write numbered `seq` stored it, if kept. */
  get(id: string, seq: number): RecordDocument | undefined {
    const kept = this.byId.get(id);
    return kept !== undefined && kept.seq === seq ? kept.doc : undefined;
  }

  /** Keeps (and freezes) the document the write numbered `seq` stored; returns it. */
  keep(id: string, seq: number, doc: RecordDocument): RecordDocument {
    if (this.capacity === 0) return doc;
    deepFreeze(doc);
    this.byId.delete(id);
    if (this.byId.size >= this.capacity) this.byId.delete(this.byId.keys().next().value!);
    this.byId.set(id, { seq, doc });
    return doc;
  }
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
