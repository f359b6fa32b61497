import { Injectable, OnModuleInit } from '@nestjs/common';
import { RelationTopRelated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { TopRelatedRepository } from './top-related.repository';

/** Keeps each record's top_related as the relations service publishes it (idempotent, newest wins). */
@Injectable()
export class TopRelatedConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly lists: TopRelatedRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([RelationTopRelated.type], async (event, manager) => {
      const { recordId, related } = RelationTopRelated.payload.parse(event.payload);
      await this.lists.save(manager, recordId, related, event.occurredAt);
    });
  }
}
