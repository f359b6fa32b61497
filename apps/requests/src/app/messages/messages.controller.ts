import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe, isoDateTime, pagedSchema, pageQuerySchema } from '@dc/platform';
import { MarkReadDto, markReadSchema, PostMessageDto, postMessageSchema } from './dto/message.dto';
import { MessagesService } from './messages.service';
import { z } from 'zod';

const messageViewSchema = z.object({
  id: z.string(),
  request: z.string(),
  message: z.string(),
  user: z.string(),
  user_id: z.string(),
  created: isoDateTime,
  mine: z.boolean(),
});

/** A request's message thread (spec section 7, "Requests and messages"). */
@Controller('api/request-messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  /** `?request=<id>`: `{count, next, previous, results}`, oldest first. */
  @ApiContract({
    summary: "A request's message thread, oldest first",
    query: pageQuerySchema.extend({ request: z.string() }),
    responses: { 200: pagedSchema(messageViewSchema) },
  })
  @Get()
  list(@CurrentUser() user: AuthUser, @Query('request') request: string | undefined, @Query() query: { page?: string; page_size?: string }) {
    return this.messages.list(user, typeof request === 'string' ? request : undefined, query);
  }

  /** `{request, message}`. */
  @ApiContract({
    summary: "Write in a request's thread",
    body: postMessageSchema,
    requestExample: { request: '0b7f3c1e-8d2a-4f5b-9c6d-1e2f3a4b5c6d', message: 'Which years do you need?' },
    responses: { 201: messageViewSchema },
  })
  @Post()
  @HttpCode(201)
  post(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(postMessageSchema)) dto: PostMessageDto) {
    return this.messages.post(user, dto);
  }

  /** `{request, message?}`: the caller read the thread up to the message (or all of it); an addition to the spec's calls. */
  @ApiContract({
    summary: "Mark a request's thread read, up to a message or all of it",
    body: markReadSchema,
    requestExample: { request: '0b7f3c1e-8d2a-4f5b-9c6d-1e2f3a4b5c6d' },
    responses: { 200: z.object({ request: z.string(), read_until: isoDateTime.nullable() }) },
  })
  @Post('read')
  @HttpCode(200)
  markRead(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(markReadSchema)) dto: MarkReadDto) {
    return this.messages.markRead(user, dto);
  }
}
