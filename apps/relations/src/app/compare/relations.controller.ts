import { Controller, Get, Query } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, Public, SchemaPipe } from '@dc/platform';
import { inferHeaderSchema, linkRowsSchema, pairSchema, semanticsSchema } from './dto';
import {
  INFER_HEADER_CONTRACT,
  JOINING_CONTRACT,
  LINK_ROWS_CONTRACT,
  LINKABILITY_CONTRACT,
  SEMANTICS_CONTRACT,
  STATISTICS_CONTRACT,
  STRUCTURES_CONTRACT,
} from './relations.contract';
import { RelationsService } from './relations.service';

type PairQuery = { record1: string; record2: string };

/**
 * GET /api/relations/{semantics,structures,statistics,joining,linkability,link-rows,infer-header}/
 * (spec section 7). Anyone may compare records they may see (anonymous visitors: EV records);
 * link-rows needs a caller who may download both.
 */
@Controller('api/relations')
export class RelationsController {
  constructor(private readonly relations: RelationsService) {}

  @ApiContract(SEMANTICS_CONTRACT)
  @Public()
  @Get('semantics')
  semantics(@CurrentUser() viewer: AuthUser | null, @Query(new SchemaPipe(semanticsSchema)) q: PairQuery & { min: number; max: number }) {
    return this.relations.semantics(viewer, q.record1, q.record2, { min: q.min, max: q.max });
  }

  @ApiContract(STRUCTURES_CONTRACT)
  @Public()
  @Get('structures')
  structures(@CurrentUser() viewer: AuthUser | null, @Query(new SchemaPipe(pairSchema)) q: PairQuery) {
    return this.relations.structures(viewer, q.record1, q.record2);
  }

  @ApiContract(STATISTICS_CONTRACT)
  @Public()
  @Get('statistics')
  statistics(@CurrentUser() viewer: AuthUser | null, @Query(new SchemaPipe(pairSchema)) q: PairQuery) {
    return this.relations.statistics(viewer, q.record1, q.record2);
  }

  @ApiContract(JOINING_CONTRACT)
  @Public()
  @Get('joining')
  joining(@CurrentUser() viewer: AuthUser | null, @Query(new SchemaPipe(pairSchema)) q: PairQuery) {
    return this.relations.joining(viewer, q.record1, q.record2);
  }

  /** The comparison modal's Linkability: matches per column and the first 10 row pairs. */
  @ApiContract(LINKABILITY_CONTRACT)
  @Public()
  @Get('linkability')
  linkability(@CurrentUser() viewer: AuthUser | null, @Query(new SchemaPipe(pairSchema)) q: PairQuery) {
    return this.relations.linkability(viewer, q.record1, q.record2);
  }

  @ApiContract(LINK_ROWS_CONTRACT)
  @Get('link-rows')
  linkRows(@CurrentUser() viewer: AuthUser, @Query(new SchemaPipe(linkRowsSchema)) q: PairQuery & { limit: number }) {
    return this.relations.linkRows(viewer, q.record1, q.record2, q.limit);
  }

  @ApiContract(INFER_HEADER_CONTRACT)
  @Public()
  @Get('infer-header')
  inferHeader(@CurrentUser() viewer: AuthUser | null, @Query(new SchemaPipe(inferHeaderSchema)) q: { record: string; header: string }) {
    return this.relations.inferHeader(viewer, q.record, q.header);
  }
}
