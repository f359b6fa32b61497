import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { Response } from 'express';
import { CONNECT_TIME_LIMIT_MS, type ConnectionFailure, type SqlType } from './sql-database';

/** The leading words of every connection failure (README, docs/operations.md quote them). */
export const CONNECTION_FAILED = 'Connecting to the database failed.';
export const NO_SUCH_TABLE = 'This database has no such table.';

const TYPE_LABEL: Record<SqlType, string> = { mysql: 'MySQL or MariaDB', postgresql: 'PostgreSQL' };
const USUAL_PORT: Record<SqlType, number> = { mysql: 3306, postgresql: 5432 };

/** Where the failure happened, for its sentence: what the user typed, nothing the server found out. */
export interface FailedTarget {
  sqltype: SqlType;
  host: string;
  port: number;
  name: string;
}

/**
 * What failed, in words a user can act on. Every address the operator does not allow gets the
 * same sentence, decided before any connection is tried (nothing about what listens there).
 */
export function failureText(reason: ConnectionFailure, target: FailedTarget): string {
  const seconds = Math.round(CONNECT_TIME_LIMIT_MS / 1000);
  switch (reason) {
    case 'not_allowed':
      return 'The catalogue may not connect to this address: it connects only to public addresses and to those the operator lists in ALLOWED_PRIVATE_ENDPOINTS. Ask your operator to allow it.';
    case 'not_found':
      return `No address was found for the host ${target.host}: check its spelling.`;
    case 'unreachable':
      return `The host ${target.host} cannot be reached from the catalogue: check the host, and that its network lets the catalogue in.`;
    case 'refused':
      return `The host ${target.host} refused the connection on port ${target.port}: nothing listens there. Check the port (${TYPE_LABEL[target.sqltype]} usually listens on ${USUAL_PORT[target.sqltype]}).`;
    case 'timeout':
      return `The host ${target.host} did not answer on port ${target.port} within ${seconds} s: check the host and the port, and that a firewall lets the catalogue in.`;
    case 'login_failed':
      return 'The database refused the login: check the username and the password.';
    case 'database_missing':
      return `The server has no database named ${target.name}, or this user may not use it: check the database name.`;
    case 'failed':
      return `The server did not answer as a ${TYPE_LABEL[target.sqltype]} database would: check the database type and the port.`;
  }
}

/** 400 `{"detail": "Connecting to the database failed. <what failed>", "reason": "<code>"}`: the spec's shape, with a reason added. */
export class ConnectionFailedError extends HttpException {
  constructor(
    readonly reason: ConnectionFailure,
    readonly text: string,
  ) {
    super({ detail: `${CONNECTION_FAILED} ${text}`, reason }, 400);
  }
}

/** Answers ConnectionFailedError as it is: the global filter keeps only one-key `detail` bodies. */
@Catch(ConnectionFailedError)
export class ConnectionFailedFilter implements ExceptionFilter {
  catch(error: ConnectionFailedError, host: ArgumentsHost): void {
    host.switchToHttp().getResponse<Response>().status(error.getStatus()).json(error.getResponse());
  }
}
