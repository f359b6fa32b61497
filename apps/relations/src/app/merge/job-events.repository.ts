import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@dc/contracts';
import { ServiceDatabase } from '@dc/platform';

/**
 * Relations' side of the jobs: job.requested (a merge or link asked for), and job.progressed and
 * job.completed of the LINK jobs it runs. Written to relations' outbox in one transaction each and
 * relayed to the bus after it commits; the jobs service keeps the registry.
 */
@Injectable()
export class JobEventsRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /** Writes the events to the outbox together: all of them go out, or none. */
  async publish(...events: EventEnvelope[]): Promise<void> {
    await this.db.transaction((tx) => tx.publish(...events));
  }
}
