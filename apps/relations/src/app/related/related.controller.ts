import { Controller, Get, Query } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, Public, SchemaPipe } from '@dc/platform';
import { recordSchema } from '../compare/dto';
import { joinableWithResponseSchema, topRelatedResponseSchema } from '../compare/responses';
import { RelatedService } from './related.service';

@Controller('api/relations')
export class RelatedController {
  constructor(private readonly related: RelatedService) {}

  /** "Joinable with" on the record page. */
  @ApiContract({
    summary: 'Records the caller may see that join with this one on some column whose values they may read, best first (at most 10)',
    query: recordSchema,
    responses: { 200: joinableWithResponseSchema },
    example: {
      record: '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f',
      count: 1,
      results: [
        {
          id: '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b',
          name: 'Stations',
          join_score: 0.83,
          unionable: false,
          matching_headers: [
            {
              header_left: 'station_id',
              header_right: 'id',
              header_similarity: 0.5,
              containment_left: 0.97,
              containment_right: 0.4,
              jaccard: 0.39,
              score: 0.83,
              values_compared: true,
            },
          ],
        },
      ],
    },
  })
  @Public()
  @Get('joinable-with')
  joinableWith(@CurrentUser() viewer: AuthUser | null, @Query(new SchemaPipe(recordSchema)) q: { record: string }) {
    return this.related.joinableWith(viewer, q.record);
  }

  /** The record's top_related (sem_score, struct_score, stats_score, link_score), for the caller. */
  @ApiContract({
    summary: "The record's top_related, scored in the background, that the caller may see",
    query: recordSchema,
    responses: { 200: topRelatedResponseSchema },
    example: {
      record: '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f',
      top_related: [{ id: '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b', name: 'Stations', sem_score: 0.62, struct_score: 0.5, stats_score: 0.8, link_score: 0.83 }],
    },
  })
  @Public()
  @Get('top-related')
  topRelated(@CurrentUser() viewer: AuthUser | null, @Query(new SchemaPipe(recordSchema)) q: { record: string }) {
    return this.related.topRelated(viewer, q.record);
  }
}
