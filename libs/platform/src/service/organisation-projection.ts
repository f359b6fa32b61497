import type { EntityManager } from 'typeorm';

/** The tables in which services keep identity's organisations by the time of the event applied (`updated_at`). */
export type OrganisationProjectionTable = 'requests.organisations' | 'search.organisations';

/**
 * Applies an organisation.updated to a service's copy of the organisations unless a newer event was
 * applied already (then false): a late older event changes nothing. The catalogue's copy differs
 * (its `updated_at` is its own change time, the event's is `event_at`) and keeps its own statement.
 */
export async function applyOrganisation(
  manager: EntityManager,
  table: OrganisationProjectionTable,
  organisation: { id: string; name: string; description: string },
  occurredAt: string,
): Promise<boolean> {
  const applied: unknown[] = await manager.query(
    `INSERT INTO ${table} (id, name, description, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, updated_at = excluded.updated_at
     WHERE ${table}.updated_at <= excluded.updated_at
     RETURNING id`,
    [organisation.id, organisation.name, organisation.description, occurredAt],
  );
  return applied.length === 1;
}
