import { PipeTransform } from '@nestjs/common';
import { z } from 'zod';
import { FieldErrors, FieldValidationError } from './api-errors';

/** Validates a body or query with a zod schema; failures become `{"field": ["message"]}`. */
export class SchemaPipe<TSchema extends z.ZodType> implements PipeTransform<unknown, z.output<TSchema>> {
  constructor(private readonly schema: TSchema) {}

  transform(value: unknown): z.output<TSchema> {
    const result = this.schema.safeParse(value ?? {});
    if (result.success) return result.data;
    throw new FieldValidationError(toFieldErrors(result.error));
  }
}

export function toFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : 'non_field_errors';
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}
