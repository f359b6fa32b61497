import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe, isoDateTime, pagedSchema, pageQuerySchema } from '@dc/platform';
import { CreateRequestDto, createRequestSchema, UpdateRequestDto, updateRequestSchema } from './dto/request.dto';
import { RequestsService } from './requests.service';
import { z } from 'zod';
import { requestViewSchema } from './request-view';

const requestListSchema = pagedSchema(requestViewSchema);
const auditTrailSchema = pagedSchema(
  z.object({
    seq: z.number().int(),
    id: z.string(),
    request: z.string(),
    action: z.string(),
    actor: z.string(),
    actor_id: z.string(),
    details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    occurred_at: isoDateTime,
    prev_hash: z.string(),
    hash: z.string(),
  }),
);

const attentionSchema = z.object({
  count: z.number().int().describe('pending_requests plus unread_messages'),
  pending_requests: z.number().int().describe('received requests waiting for a decision (sent or in review)'),
  unread_messages: z.number().int().describe('messages the other side wrote since the caller last read the thread'),
  requests: z.array(z.object({ request: z.string(), pending: z.boolean(), unread_messages: z.number().int() })),
});

type PageQuery = { page?: string; page_size?: string };

/** Access requests (spec section 7, "Requests and messages"). The named lists come before {id}. */
@Controller('api/requests')
export class RequestsController {
  constructor(private readonly requests: RequestsService) {}

  /** My Requests: `{count, next, previous, results}`, newest first, closed ones left out. */
  @ApiContract({
    summary: "My Requests: the caller's requests, newest first, closed ones left out",
    query: pageQuerySchema,
    responses: { 200: requestListSchema },
  })
  @Get('sent_requests')
  sent(@CurrentUser() user: AuthUser, @Query() query: PageQuery) {
    return this.requests.sent(user, query);
  }

  /** Received Requests: sent requests for records the caller reviews (the owner, the organisation's Data Admins). */
  @ApiContract({ summary: 'Received Requests: sent requests for records the caller reviews', query: pageQuerySchema, responses: { 200: requestListSchema } })
  @Get('received_requests')
  received(@CurrentUser() user: AuthUser, @Query() query: PageQuery) {
    return this.requests.received(user, query);
  }

  /** What waits for the caller: `{count, pending_requests, unread_messages, requests}` (an addition to the spec's calls). */
  @ApiContract({ summary: 'What waits for the caller: received requests to decide and unread messages', responses: { 200: attentionSchema } })
  @Get('attention')
  attention(@CurrentUser() user: AuthUser) {
    return this.requests.attention(user);
  }

  /** `?record=<id>`: the record's hash-chained audit trail, for its owner side. */
  @ApiContract({
    summary: "A record's hash-chained audit trail (its owner side)",
    query: pageQuerySchema.extend({ record: z.string() }),
    responses: { 200: auditTrailSchema },
  })
  @Get('audit')
  audit(@CurrentUser() user: AuthUser, @Query('record') record: string | undefined, @Query() query: PageQuery) {
    return this.requests.trail(user, typeof record === 'string' ? record : undefined, query);
  }

  @ApiContract({ summary: 'A request the caller is a party to', responses: { 200: requestViewSchema } })
  @Get(':id')
  get(@Param('id') id: string, @CurrentUser() user: AuthUser) {
    return this.requests.get(id, user);
  }

  /** `{record, status: "new"}`: 201 with the request, or 200 `{message, request}` when the caller already has one open. */
  @ApiContract({
    summary: 'Open a request for a record (status new); 200 with the open one when it exists',
    body: createRequestSchema,
    requestExample: { record: '0b7f3c1e-8d2a-4f5b-9c6d-1e2f3a4b5c6d', status: 'new' },
    responses: { 201: requestViewSchema, 200: z.object({ message: z.string(), request: requestViewSchema }) },
  })
  @Post()
  async create(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(createRequestSchema)) dto: CreateRequestDto, @Res({ passthrough: true }) res: Response) {
    const { created, body } = await this.requests.create(user, dto);
    res.status(created ? 201 : 200);
    return body;
  }

  /** `{status, note, purpose, access_policies}`; `expires_at` with approved, `reason` with revoked. */
  @ApiContract({
    summary: 'Send, review, approve, deny, revoke or close a request; answer its policy',
    body: updateRequestSchema,
    responses: { 200: requestViewSchema },
  })
  @Put(':id')
  update(@Param('id') id: string, @CurrentUser() user: AuthUser, @Body(new SchemaPipe(updateRequestSchema)) dto: UpdateRequestDto) {
    return this.requests.update(id, user, dto);
  }
}
