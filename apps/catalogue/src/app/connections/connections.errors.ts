import { DetailError } from '@dc/platform';

/**
 * One answer for every way a connection can fail (unknown host, refused address, closed port,
 * time-out, wrong password, missing database): it tells a port scanner nothing but "failed".
 */
export const CONNECTION_FAILED = 'Connecting to the database failed.';
export const connectionFailed = () => new DetailError(CONNECTION_FAILED, 400);
export const NO_SUCH_TABLE = 'This database has no such table.';
