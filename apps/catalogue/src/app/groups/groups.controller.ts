import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe } from '@dc/platform';
import { CreateGroupDto, createGroupSchema, groupListSchema, groupViewSchema, UpdateGroupDto, updateGroupSchema } from './dto/group.dto';
import { GroupsService } from './groups.service';
import { z } from 'zod';

/** Projects (spec section 7, "Policies and groups"): groupName, groupDescription, groupFields, addRecordIds, removeRecordIds. */
@Controller('api/groups')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  /** `{status, groups, checked}`: the organisation's projects; with `record`, the ids of those holding it. */
  @ApiContract({
    summary: "The organisation's projects; with `record`, also the ids of those holding it",
    query: z.object({ record: z.string().optional() }),
    responses: { 200: groupListSchema },
  })
  @Get()
  list(@CurrentUser() user: AuthUser, @Query('record') record: string | undefined) {
    return this.groups.list(user, typeof record === 'string' && record !== '' ? record : undefined);
  }

  @ApiContract({ summary: 'A project', responses: { 200: groupViewSchema } })
  @Get(':id')
  get(@Param('id') id: string, @CurrentUser() user: AuthUser) {
    return this.groups.get(id, user);
  }

  @ApiContract({
    summary: 'Start a project',
    body: createGroupSchema,
    requestExample: { groupName: 'Air quality', groupDescription: 'Sensors 2025', groupFields: [{ label: 'Lead', text: 'Ada' }] },
    responses: { 201: groupViewSchema },
  })
  @Post()
  @HttpCode(201)
  create(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(createGroupSchema)) dto: CreateGroupDto) {
    return this.groups.create(user, dto);
  }

  @ApiContract({ summary: 'Rename a project, or file records into it or out of it', body: updateGroupSchema, responses: { 200: groupViewSchema } })
  @Put(':id')
  update(@Param('id') id: string, @CurrentUser() user: AuthUser, @Body(new SchemaPipe(updateGroupSchema)) dto: UpdateGroupDto) {
    return this.groups.update(id, user, dto);
  }

  @ApiContract({ summary: 'Delete a project (its records stay)', responses: { 204: null } })
  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') id: string, @CurrentUser() user: AuthUser): Promise<void> {
    await this.groups.remove(id, user);
  }
}
