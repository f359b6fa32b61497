import { z } from 'zod';
import { isoDateTime } from '@dc/platform';
import { SQL_TYPES, type SqlType } from './sql-database';

/** A saved SQL connection (spec section 3); the password stays sealed. */
export interface Connection {
  id: string;
  ownerId: string;
  organisationId: string;
  /** The database's name. */
  name: string;
  sqltype: SqlType;
  host: string;
  port: number;
  username: string;
  sealedPassword: string;
  createdAt: Date;
}

/** A connection as the API answers it (the OpenAPI document's schema): never the password. */
export const connectionViewSchema = z.object({
  id: z.string(),
  type: z.literal('sql'),
  name: z.string().describe("the database's name"),
  sqltype: z.enum(SQL_TYPES),
  host: z.string(),
  port: z.number().int(),
  username: z.string(),
  user: z.string(),
  date_created: isoDateTime,
});
export type ConnectionView = z.output<typeof connectionViewSchema>;

/** What the API shows of a connection: never the password. */
export function connectionView(connection: Connection): ConnectionView {
  return {
    id: connection.id,
    type: 'sql' as const,
    name: connection.name,
    sqltype: connection.sqltype,
    host: connection.host,
    port: connection.port,
    username: connection.username,
    user: connection.username,
    date_created: connection.createdAt.toISOString(),
  };
}
