import type { ServiceTransaction } from '@dc/platform';
import type { EntityManager, QueryDeepPartialEntity } from 'typeorm';
import { userUpdatedEvent } from './account-events';
import { UserEntity } from './user.entity';

/** Changes a user inside a transaction and records user.updated with the new state; null if gone. */
export async function updateUser(tx: ServiceTransaction, id: string, patch: QueryDeepPartialEntity<UserEntity>): Promise<UserEntity | null> {
  const result = await tx.manager.update(UserEntity, { id }, patch);
  if (!result.affected) return null;
  const user = await tx.manager.findOneByOrFail(UserEntity, { id });
  await tx.publish(userUpdatedEvent(user));
  return user;
}

/** A password change: new hash, and a new version so tokens issued before stop working. */
export const passwordChange = (passwordHash: string): QueryDeepPartialEntity<UserEntity> => ({ passwordHash, passwordVersion: () => 'password_version + 1' });

/** Case-insensitive; `exceptUserId` leaves out the account being edited. */
export async function usernameOrEmailTaken(
  db: Pick<EntityManager, 'query'>,
  username: string | undefined,
  email: string | undefined,
  exceptUserId?: string,
): Promise<{ username: boolean; email: boolean }> {
  const rows: Array<{ username: boolean | null; email: boolean | null }> = await db.query(
    `SELECT bool_or(lower(username) = lower($1)) AS username, bool_or(lower(email) = lower($2)) AS email
       FROM identity.users WHERE (lower(username) = lower($1) OR lower(email) = lower($2)) AND ($3::uuid IS NULL OR id <> $3::uuid)`,
    [username ?? null, email ?? null, exceptUserId ?? null],
  );
  return { username: rows[0]?.username ?? false, email: rows[0]?.email ?? false };
}

/** The rows of an `UPDATE ... RETURNING` (TypeORM answers UPDATE and DELETE as `[rows, count]`). */
export async function updateReturning<T>(manager: Pick<EntityManager, 'query'>, sql: string, params: unknown[]): Promise<T[]> {
  const [rows] = (await manager.query(sql, params)) as [T[], number];
  return rows;
}
