// Typed errors for files that cannot be described. extractMetadata reports them in ERRORS by default
// and throws them with onInvalid: 'throw'.

export abstract class ExtractionError extends Error {
  abstract readonly code: 'unsupported' | 'corrupt' | 'limit';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No extractor for this type (the file is still indexed, without META content). */
export class UnsupportedFileError extends ExtractionError {
  readonly code = 'unsupported' as const;
}

/** The bytes do not form a valid file of the claimed type (truncated, damaged, empty, wrong format). */
export class CorruptFileError extends ExtractionError {
  readonly code = 'corrupt' as const;
}

/** A limit of ExtractionLimits refused the file (too large, zip bomb, unsafe archive entry). */
export class ExtractionLimitError extends ExtractionError {
  readonly code = 'limit' as const;
}
