import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseFilters } from '@nestjs/common';
import type { Request } from 'express';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe, pagedSchema } from '@dc/platform';
import { ConnectionsService } from './connections.service';
import { type ConnectionDto, connectionSchema, type CreateMetadataDto, createMetadataSchema, type GetObjectDto, getObjectSchema } from './dto/connection.dto';
import { z } from 'zod';
import { recordViewSchema } from '../record-view/record-view';
import { connectionViewSchema } from './connection';
import { ConnectionFailedFilter } from './connections.errors';
import { CONNECT_TIME_LIMIT_MS, CONNECTION_FAILURES } from './sql-database';

/** Spec section 7 "Connections", all under /api/connections/ (with or without the trailing slash). */
@Controller('api/connections')
@UseFilters(ConnectionFailedFilter)
export class ConnectionsController {
  constructor(private readonly connections: ConnectionsService) {}

  @ApiContract({
    summary: "The caller's SQL connections, paged",
    query: z.object({ page: z.number().int().min(1).optional() }),
    responses: { 200: pagedSchema(connectionViewSchema) },
  })
  @Get('list-connections')
  list(@CurrentUser() user: AuthUser, @Query() query: { page?: string }, @Req() req: Request) {
    return this.connections.list(user, query, req.originalUrl);
  }

  @ApiContract({
    summary: 'Try a connection without saving it (`pass`: whether a read-only session opened)',
    description: `When \`pass\` is false, \`reason\` says what failed and \`detail\` says it in words. Opening the session (name lookup and login included) has ${CONNECT_TIME_LIMIT_MS / 1000} s; after that the reason is \`timeout\`. Every address the operator does not allow (ALLOWED_PRIVATE_ENDPOINTS) answers \`not_allowed\`, before any connection is tried.`,
    body: connectionSchema,
    responses: {
      200: z.object({
        pass: z.boolean(),
        reason: z.enum(CONNECTION_FAILURES).optional().describe('when pass is false: what failed'),
        detail: z.string().optional().describe('when pass is false: what failed, in words'),
      }),
    },
  })
  @Post('test-connection')
  @HttpCode(200)
  test(@Body(new SchemaPipe(connectionSchema)) dto: ConnectionDto) {
    return this.connections.test(dto);
  }

  @ApiContract({
    summary: 'Save a connection once it connects (the password is stored encrypted)',
    description:
      'A connection that fails answers 400 `{"detail": "Connecting to the database failed. <what failed>", "reason": "<reason>"}`, `reason` as test-connection gives it.',
    body: connectionSchema,
    responses: { 201: connectionViewSchema },
  })
  @Post('create-connection')
  @HttpCode(201)
  create(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(connectionSchema)) dto: ConnectionDto) {
    return this.connections.create(user, dto);
  }

  @ApiContract({
    summary: 'The first rows of a table, as text',
    body: getObjectSchema,
    responses: { 200: z.object({ HEADERS: z.array(z.string()), RAW: z.array(z.array(z.string().nullable())), TOTAL_ROWS: z.number().int() }) },
  })
  @Post('get-object')
  @HttpCode(200)
  getObject(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(getObjectSchema)) dto: GetObjectDto) {
    return this.connections.getObject(user, dto);
  }

  @ApiContract({
    summary: 'Index a table: a record whose META the database computes with aggregate queries',
    body: createMetadataSchema,
    responses: { 201: recordViewSchema },
  })
  @Post('create-metadata')
  @HttpCode(201)
  createMetadata(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(createMetadataSchema)) dto: CreateMetadataDto) {
    return this.connections.createMetadata(user, dto);
  }

  @ApiContract({ summary: 'A saved connection', responses: { 200: connectionViewSchema } })
  @Get(':id/get-connection')
  get(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return this.connections.get(user, id);
  }

  @ApiContract({
    summary: 'The tables and views of the database, with their columns',
    responses: { 200: pagedSchema(z.object({ name: z.string(), columns: z.array(z.object({ name: z.string(), type: z.string() })) })) },
  })
  @Get(':id/list-objects')
  listObjects(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return this.connections.listObjects(user, id);
  }

  @ApiContract({ summary: 'Delete a saved connection', responses: { 204: null } })
  @Post(':id/delete-connection')
  @HttpCode(204)
  async remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    await this.connections.remove(user, id);
  }
}
