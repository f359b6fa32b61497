import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiContract, AuthUser, CurrentUser, pageQuerySchema, SchemaPipe } from '@dc/platform';
import {
  type CreateEndpointDto,
  createEndpointSchema,
  deliveriesPageSchema,
  deliveryViewSchema,
  endpointListSchema,
  endpointViewSchema,
  endpointWithSecretSchema,
  secretSchema,
  type UpdateEndpointDto,
  updateEndpointSchema,
} from './dto';
import { WebhooksService } from './webhooks.service';

const ENDPOINT_EXAMPLE = {
  id: '3f0c7a52-6a1e-4f7b-9d0e-2b8c4e5f6a71',
  url: 'https://hooks.example.org/catalogue',
  description: 'Our data portal',
  event_types: ['record.created', 'request.created'],
  active: true,
  created: '2026-11-29T08:00:00.000Z',
  updated: '2026-11-29T08:00:00.000Z',
};
const SECRET_EXAMPLE = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const ADMIN_ONLY = "Data Admins of the caller's organisation only (403 otherwise); an endpoint of another organisation answers 404.";

/** Signed webhooks (docs/webhooks.md): an organisation's endpoints, their delivery logs and test events. */
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @ApiContract({ summary: "The organisation's webhook endpoints (no secrets)", description: ADMIN_ONLY, responses: { 200: endpointListSchema } })
  @Get()
  list(@CurrentUser() user: AuthUser) {
    return this.webhooks.list(user);
  }

  @ApiContract({
    summary: 'Register a webhook endpoint; the answer holds its signing secret, shown this once',
    description: `${ADMIN_ONLY} The URL goes through the address guard: a local or private address the operator did not allow (ALLOWED_PRIVATE_ENDPOINTS) answers 400 {"url": [...]}.`,
    body: createEndpointSchema,
    requestExample: { url: ENDPOINT_EXAMPLE.url, description: ENDPOINT_EXAMPLE.description, event_types: ENDPOINT_EXAMPLE.event_types },
    responses: { 201: endpointWithSecretSchema },
    example: { ...ENDPOINT_EXAMPLE, secret: SECRET_EXAMPLE },
  })
  @Post()
  @HttpCode(201)
  create(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(createEndpointSchema)) dto: CreateEndpointDto) {
    return this.webhooks.create(user, dto);
  }

  @ApiContract({
    summary: 'Change a webhook endpoint (URL, description, event types, active)',
    description: ADMIN_ONLY,
    body: updateEndpointSchema,
    requestExample: { active: false },
    responses: { 200: endpointViewSchema },
    example: { ...ENDPOINT_EXAMPLE, active: false },
  })
  @Patch(':id')
  update(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body(new SchemaPipe(updateEndpointSchema)) dto: UpdateEndpointDto) {
    return this.webhooks.update(user, id, dto);
  }

  @ApiContract({ summary: 'Remove a webhook endpoint and its delivery log', description: ADMIN_ONLY, responses: { 204: null } })
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(user, id);
  }

  @ApiContract({
    summary: 'A new signing secret for the endpoint (shown this once; the old one stops at once)',
    description: ADMIN_ONLY,
    responses: { 200: secretSchema },
    example: { secret: SECRET_EXAMPLE },
  })
  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotate(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return this.webhooks.rotateSecret(user, id);
  }

  @ApiContract({
    summary: "The endpoint's delivery log, newest first",
    description: ADMIN_ONLY,
    query: pageQuerySchema,
    responses: { 200: deliveriesPageSchema },
  })
  @Get(':id/deliveries')
  deliveries(@CurrentUser() user: AuthUser, @Param('id') id: string, @Query() query: { page?: string; page_size?: string }, @Req() req: Request) {
    return this.webhooks.deliveries(user, id, query, req.originalUrl);
  }

  @ApiContract({
    summary: 'Send a test event (webhook.test) to the endpoint: queued and sent in the background; its delivery shows the outcome',
    description: ADMIN_ONLY,
    responses: { 202: deliveryViewSchema },
  })
  @Post(':id/test')
  @HttpCode(202)
  test(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return this.webhooks.sendTest(user, id);
  }

  @ApiContract({
    summary: 'Send a dead-lettered delivery again (with a fresh count of attempts)',
    description: `${ADMIN_ONLY} A delivery that is not dead answers 400.`,
    responses: { 202: deliveryViewSchema },
  })
  @Post(':id/deliveries/:delivery/resend')
  @HttpCode(202)
  resend(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('delivery') delivery: string) {
    return this.webhooks.resend(user, id, delivery);
  }
}
