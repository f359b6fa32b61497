import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe, pageQuerySchema } from '@dc/platform';
import { PolicyDto, policyExample, policyPageSchema, policySchema, policyViewSchema } from './dto/policy.dto';
import { PoliciesService } from './policies.service';

/** Access policies (spec section 7, "Policies and groups"): policyName and policyFields. */
@Controller('api/policies')
export class PoliciesController {
  constructor(private readonly policies: PoliciesService) {}

  /** The caller's organisation's policies, paged. */
  @ApiContract({ summary: "The caller's organisation's access policies, paged", query: pageQuerySchema, responses: { 200: policyPageSchema } })
  @Get()
  list(@CurrentUser() user: AuthUser, @Query() query: { page?: string; page_size?: string }, @Req() req: Request) {
    return this.policies.list(user, query, req.originalUrl);
  }

  @ApiContract({ summary: "An access policy of the caller's organisation", responses: { 200: policyViewSchema }, example: policyExample })
  @Get(':id')
  get(@Param('id') id: string, @CurrentUser() user: AuthUser) {
    return this.policies.get(id, user);
  }

  @ApiContract({
    summary: 'Create an access policy (Data Admin)',
    body: policySchema,
    requestExample: { policyName: 'Research only', policyFields: [{ topic: 'Ethics', requirement: 'An approved ethics protocol', agree: 'yes' }] },
    responses: { 201: policyViewSchema },
    example: policyExample,
  })
  @Post()
  @HttpCode(201)
  create(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(policySchema)) dto: PolicyDto) {
    return this.policies.create(user, dto);
  }

  @ApiContract({ summary: 'Change an access policy (Data Admin)', body: policySchema, responses: { 200: policyViewSchema } })
  @Put(':id')
  update(@Param('id') id: string, @CurrentUser() user: AuthUser, @Body(new SchemaPipe(policySchema)) dto: PolicyDto) {
    return this.policies.update(id, user, dto);
  }

  @ApiContract({ summary: 'Delete an access policy not attached to any record (409 otherwise)', responses: { 204: null } })
  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') id: string, @CurrentUser() user: AuthUser): Promise<void> {
    await this.policies.remove(id, user);
  }
}
