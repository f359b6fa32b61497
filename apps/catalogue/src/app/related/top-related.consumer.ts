import { Injectable, OnModuleInit } from '@nestjs/common';
import { RelationTopRelated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import { TopRelatedRepository } from './top-related.repository';

/** Keeps each record's top_related as the relations service publishes it (idempotent, newest wins). */
@Injectable()
export class TopRelatedConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly work: UnitOfWork,
    private readonly lists: TopRelatedRepository,
  ) {}

  onModuleInit(): void {
    this.work.on(this.events, [RelationTopRelated.type], async (event) => {
      const { recordId, related } = RelationTopRelated.payload.parse(event.payload);
      await this.lists.save(recordId, related, event.occurredAt);
    });
  }
}
