import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { ApiErrorBody, GENERIC_ERROR, TooManyRequestsError } from './api-errors';

const defaultDetail: Record<number, string> = {
  400: 'Bad request.',
  401: 'Authentication credentials were not provided.',
  403: 'You do not have permission to perform this action.',
  404: 'Not found.',
  405: 'Method not allowed.',
  413: 'The upload is too large.',
  429: 'Too many requests. Please try again later.',
};

function isApiShape(body: unknown): body is ApiErrorBody {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const entries = Object.entries(body);
  if (entries.length === 0) return false;
  if ('detail' in body && typeof (body as { detail: unknown }).detail === 'string' && entries.length === 1) return true;
  return entries.every(([, value]) => Array.isArray(value) && value.every((v) => typeof v === 'string'));
}

/** body-parser's JSON errors, raw or wrapped by Nest, must not echo parser internals. */
function isBodyParseError(exception: unknown): boolean {
  const typed = exception as { type?: string; cause?: { type?: string } } | undefined;
  return (
    typed?.type === 'entity.parse.failed' ||
    typed?.cause?.type === 'entity.parse.failed' ||
    (exception instanceof HttpException && exception.getStatus() === 400 && exception.cause instanceof SyntaxError)
  );
}

/** Turns every error into the spec's JSON shapes; unexpected errors are logged, never leaked. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    const { status, body } = this.toResponse(exception);
    if (exception instanceof TooManyRequestsError) response.setHeader('Retry-After', String(Math.max(1, Math.ceil(exception.retryAfterSeconds))));
    response.status(status).json(body);
  }

  private toResponse(exception: unknown): { status: number; body: ApiErrorBody } {
    if (isBodyParseError(exception)) return { status: 400, body: { detail: 'Malformed request body.' } };
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      if (isApiShape(body)) return { status, body };
      const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
      // Nest's own errors (unknown route, payload too large, ...) keep their status with a plain detail.
      const detail = status === 404 ? defaultDetail[404] : typeof message === 'string' && status < 500 ? message : (defaultDetail[status] ?? GENERIC_ERROR);
      if (status >= 500) this.logger.error({ err: exception }, 'request failed');
      return { status, body: { detail } };
    }
    if ((exception as { type?: string })?.type === 'entity.too.large') return { status: 413, body: { detail: defaultDetail[413] } };
    this.logger.error({ err: exception }, 'unexpected error');
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: { detail: GENERIC_ERROR } };
  }
}
