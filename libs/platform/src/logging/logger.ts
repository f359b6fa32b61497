import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';
import { currentCorrelationId } from './context';

/** Structured JSON logs; every line carries the service name and the current correlation id. */
export function createLogger(options: { service: string; level?: string; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service },
      mixin: () => {
        const correlationId = currentCorrelationId();
        return correlationId ? { correlationId } : {};
      },
      redact: {
        paths: [
          'password',
          '*.password',
          'headers.authorization',
          '*.api_secret',
          'api_secret',
          'AwsSecretAccessKey',
          '*.AwsSecretAccessKey',
          'secretAccessKey',
          '*.secretAccessKey',
          'linkageKey',
          '*.linkageKey',
        ],
        censor: '[redacted]',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}

/** Lets Nest's own messages go through the same structured logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
