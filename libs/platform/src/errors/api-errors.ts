import { HttpException, HttpStatus } from '@nestjs/common';

/** The error bodies the client reads (spec section 8, ARCHITECTURE section 5). */
export type FieldErrors = Record<string, string[]>;
export type ApiErrorBody = FieldErrors | { non_field_errors: string[] } | { detail: string };

export const GENERIC_ERROR = 'An error occured, please try again.';

/** 400 with per-field messages: `{"field": ["message"]}`. */
export class FieldValidationError extends HttpException {
  constructor(errors: FieldErrors, status: number = HttpStatus.BAD_REQUEST) {
    super(errors, status);
  }
}

/** 400 (or another 4xx) with `{"non_field_errors": ["message"]}`. */
export class NonFieldError extends HttpException {
  constructor(message: string, status: number = HttpStatus.BAD_REQUEST) {
    super({ non_field_errors: [message] }, status);
  }
}

/** Any status with `{"detail": "message"}`. */
export class DetailError extends HttpException {
  constructor(message: string, status: number) {
    super({ detail: message }, status);
  }
}

/** 429 `{"detail": "message"}` with `Retry-After: <seconds>`, so a client knows when to come back. */
export class TooManyRequestsError extends DetailError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** 404 `{"detail": "Not found."}`: the answer for anything the caller may not see as well as for what does not exist. */
export const notFound = (message = 'Not found.') => new DetailError(message, HttpStatus.NOT_FOUND);

/** A field naming a record, policy or request that does not exist (or that the caller may not see). */
export const invalidPk = (id: string) => `Invalid pk "${id}" - object does not exist.`;
