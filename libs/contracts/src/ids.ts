const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path or body value can name a row: ids are UUIDs, and anything else would make PostgreSQL answer 500. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
