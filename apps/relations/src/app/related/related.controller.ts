import { Controller, Get, Query } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, Public, SchemaPipe } from '@dc/platform';
import { recordSchema } from '../compare/dto';
import { JOINABLE_WITH_CONTRACT, TOP_RELATED_CONTRACT } from './related.contract';
import { RelatedService } from './related.service';

@Controller('api/relations')
export class RelatedController {
  constructor(private readonly related: RelatedService) {}

  /** "Joinable with" on the record page. */
  @ApiContract(JOINABLE_WITH_CONTRACT)
  @Public()
  @Get('joinable-with')
  joinableWith(@CurrentUser() viewer: AuthUser | null, @Query(new SchemaPipe(recordSchema)) q: { record: string }) {
    return this.related.joinableWith(viewer, q.record);
  }

  /** The record's top_related (sem_score, struct_score, stats_score, link_score), for the caller. */
  @ApiContract(TOP_RELATED_CONTRACT)
  @Public()
  @Get('top-related')
  topRelated(@CurrentUser() viewer: AuthUser | null, @Query(new SchemaPipe(recordSchema)) q: { record: string }) {
    return this.related.topRelated(viewer, q.record);
  }
}
