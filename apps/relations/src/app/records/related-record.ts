import type { DerivationLink, RecordAccessFacts, TableSketchPayload } from '@dc/contracts';

/** A record as relations keeps it (record.* events): what the relations need and who may see it. */
export interface RelatedRecord extends RecordAccessFacts {
  id: string;
  name: string;
  type: string;
  size: number;
  changedAt: Date;
  headers: string[];
  words: string[];
  totalRows: number | null;
  encryptedHeaders: string[];
  fileIds: string[];
  /** A derivative of data under someone else's terms: seen by its owner alone (record.* ownerOnly). */
  ownerOnly: boolean;
  /** Lineage: the sources its data depends on; its owner reads its values while every link holds. */
  derivedFrom: DerivationLink[];
}

/** The sketches of one file of a record (file.sketched). */
export interface FileSketch {
  fileId: string;
  recordId: string;
  fileName: string;
  contentType: string;
  storageKey: string | null;
  tables: TableSketchPayload[];
}

/** A record with the sketches of its files, in the record's file order. */
export interface SketchedRecord {
  record: RelatedRecord;
  files: FileSketch[];
  /** Values of its columns (other than hashed ones) are left out for this comparison (scoring/value-sight.ts). */
  valuesWithheld?: boolean;
}
