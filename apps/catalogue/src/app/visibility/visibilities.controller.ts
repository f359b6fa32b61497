import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe, pageQuerySchema, pagedSchema } from '@dc/platform';
import { VisibilityDto, visibilitySchema } from './visibility.dto';
import { VisibilityListQuery, VisibilityService } from './visibility.service';
import { z } from 'zod';
import { visibilityViewSchema } from '../record-view/record-view';

@Controller('api/visibilities')
export class VisibilitiesController {
  constructor(private readonly visibilities: VisibilityService) {}

  @ApiContract({
    summary: 'Visibility objects of the records the caller may edit',
    query: pageQuerySchema.extend({ associated_record: z.string().optional(), record: z.string().optional() }),
    responses: { 200: pagedSchema(visibilityViewSchema) },
  })
  @Get()
  list(@CurrentUser() user: AuthUser, @Query() query: VisibilityListQuery, @Req() req: Request) {
    return this.visibilities.list(user, query, req.originalUrl);
  }

  @ApiContract({ summary: "A record's visibility object", responses: { 200: visibilityViewSchema } })
  @Get(':id')
  get(@Param('id') id: string, @CurrentUser() user: AuthUser) {
    return this.visibilities.get(id, user);
  }

  @ApiContract({ summary: "Set a record's visibility (associated_record)", body: visibilitySchema, responses: { 201: visibilityViewSchema } })
  @Post()
  @HttpCode(201)
  create(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(visibilitySchema)) dto: VisibilityDto) {
    return this.visibilities.create(user, dto);
  }

  @ApiContract({ summary: "Change a record's visibility", body: visibilitySchema, responses: { 200: visibilityViewSchema } })
  @Put(':id')
  update(@Param('id') id: string, @CurrentUser() user: AuthUser, @Body(new SchemaPipe(visibilitySchema)) dto: VisibilityDto) {
    return this.visibilities.update(id, user, dto);
  }
}
