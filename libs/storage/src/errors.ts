/** Base class, so callers (and an exception filter) can tell storage failures apart. */
export class ObjectStorageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class ObjectNotFoundError extends ObjectStorageError {
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`Object not found: ${key}`, options);
  }
}

export class ObjectTooLargeError extends ObjectStorageError {
  constructor(
    readonly key: string,
    readonly maxBytes: number,
  ) {
    super(`Object ${key} exceeds the limit of ${maxBytes} bytes`);
  }
}

/** The body did not have the size the caller announced (for example a truncated upload). */
export class ObjectSizeMismatchError extends ObjectStorageError {
  constructor(
    readonly key: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`Object ${key} has ${actual} bytes, expected ${expected}`);
  }
}

export class InvalidObjectKeyError extends ObjectStorageError {
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`Invalid object key ${JSON.stringify(key)}: ${reason}`);
  }
}

export type InvalidSignedLinkReason = 'malformed' | 'bad-signature' | 'expired';

export class InvalidSignedLinkError extends ObjectStorageError {
  constructor(readonly reason: InvalidSignedLinkReason) {
    super(`Invalid signed link: ${reason}`);
  }
}
