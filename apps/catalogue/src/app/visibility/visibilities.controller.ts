import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthUser, CurrentUser, SchemaPipe } from '@dc/platform';
import { VisibilityDto, visibilitySchema } from './visibility.dto';
import { VisibilityListQuery, VisibilityService } from './visibility.service';

@Controller('api/visibilities')
export class VisibilitiesController {
  constructor(private readonly visibilities: VisibilityService) {}

  @Get()
  list(@CurrentUser() user: AuthUser, @Query() query: VisibilityListQuery, @Req() req: Request) {
    return this.visibilities.list(user, query, req.originalUrl);
  }

  @Get(':id')
  get(@Param('id') id: string, @CurrentUser() user: AuthUser) {
    return this.visibilities.get(id, user);
  }

  @Post()
  @HttpCode(201)
  create(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(visibilitySchema)) dto: VisibilityDto) {
    return this.visibilities.create(user, dto);
  }

  @Put(':id')
  update(@Param('id') id: string, @CurrentUser() user: AuthUser, @Body(new SchemaPipe(visibilitySchema)) dto: VisibilityDto) {
    return this.visibilities.update(id, user, dto);
  }
}
