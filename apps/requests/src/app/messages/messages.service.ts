import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { createEvent, isUuid, listPage, pageOf, RequestMessagePosted } from '@dc/contracts';
import { AuthUser, currentCorrelationId, FieldValidationError, invalidPk, NonFieldError } from '@dc/platform';
import { DirectoryRepository } from '../directory/directory.repository';
import { messageMails } from '../mail/request-mails';
import type { RequestMessage } from '../requests/request';
import { CLOSED_FOR_GOOD, Party } from '../requests/request-rules';
import { RequestsService } from '../requests/requests.service';
import { type RequestStore, RequestsRepository } from '../requests/requests.repository';
import type { MarkReadDto, PostMessageDto } from './dto/message.dto';
import { MessagesRepository } from '../requests/messages.repository';

export const SEND_FIRST = 'Send the request before writing messages.';

/** Spec section 3, Request message: request, message, user, created. */
function messageView(message: RequestMessage, username: string, viewer: AuthUser) {
  return {
    id: message.id,
    request: message.requestId,
    message: message.message,
    user: username,
    user_id: message.userId,
    created: message.createdAt.toISOString(),
    mine: message.userId === viewer.id,
  };
}

/** The thread of a request: its requestor and its owner side write and read it; nobody else learns it exists. */
@Injectable()
export class MessagesService {
  constructor(
    private readonly requests: RequestsRepository,
    private readonly requestsService: RequestsService,
    private readonly messages: MessagesRepository,
    private readonly directory: DirectoryRepository,
  ) {}

  /** GET /api/request-messages/?request=: oldest first (the newest last). */
  list(user: AuthUser, requestId: string | undefined, query: { page?: string; page_size?: string }) {
    if (!requestId) throw new FieldValidationError({ request: ['This field is required.'] });
    const at = pageOf(query, { size: 200, max: 500 });
    return this.requests.read(async (store) => {
      const { request } = await this.requestsService.partOf(store, requestId, user);
      const { count, messages } = await this.messages.thread(store.manager, request.id, { offset: at.offset, limit: at.pageSize });
      return listPage(await this.views(store.manager, messages, user), count, at, (n) => `?request=${encodeURIComponent(requestId)}&page=${n}`);
    });
  }

  /**
   * The request a message call names, if the caller is a party to it. A body's field that names no
   * such request is a 400 on that field (as for any unknown pk); other failures (the database) pass.
   */
  private async partyOf(store: RequestStore, requestId: string, user: AuthUser, options: { forUpdate?: boolean } = {}) {
    try {
      return await this.requestsService.partOf(store, requestId, user, options);
    } catch (error) {
      if (error instanceof HttpException && error.getStatus() === HttpStatus.NOT_FOUND) throw new FieldValidationError({ request: [invalidPk(requestId)] });
      throw error;
    }
  }

  /**
   * POST /api/request-messages/read/: the caller (a party) has read the thread up to the message
   * named, or all of it; the other side's messages until then no longer count as unread.
   */
  markRead(user: AuthUser, dto: MarkReadDto) {
    return this.requests.transaction(async (store) => {
      const { request } = await this.partyOf(store, dto.request, user);
      if (dto.message !== undefined && !isUuid(dto.message)) throw new FieldValidationError({ message: [invalidPk(dto.message)] });
      const readAt = await this.messages.markRead(store.manager, request.id, user.id, dto.message?.toLowerCase() ?? null);
      if (dto.message !== undefined && !readAt) throw new FieldValidationError({ message: [invalidPk(dto.message)] });
      return { request: request.id, read_until: readAt?.toISOString() ?? null };
    });
  }

  /** POST /api/request-messages/: a message in a sent request's thread; the other party is mailed. */
  post(user: AuthUser, dto: PostMessageDto) {
    const correlationId = currentCorrelationId();
    return this.requests.transaction(async (store) => {
      const { request, party, record } = await this.partyOf(store, dto.request, user, { forUpdate: true });
      if (request.status === 'new') throw new NonFieldError(SEND_FIRST);
      if (request.status === 'closed') throw new NonFieldError(CLOSED_FOR_GOOD);
      await this.directory.rememberCaller(store.manager, { id: user.id, username: user.username, organisationId: user.organisationId, groups: user.groups });
      const message: RequestMessage = { id: randomUUID(), requestId: request.id, userId: user.id, message: dto.message, createdAt: new Date() };
      await this.messages.insert(store.manager, message);
      const recipients = await this.otherParty(store.manager, party, request.requestorId, record, user.id);
      await store.publish(
        createEvent(
          RequestMessagePosted,
          request.id,
          { requestId: request.id, messageId: message.id, recordId: request.recordId, authorId: user.id, createdAt: message.createdAt.toISOString() },
          { correlationId },
        ),
        ...messageMails(recipients, user.username, message.message, party === 'requestor' ? 'received' : 'sent', {
          requestId: request.id,
          recordName: record.name,
          correlationId,
        }),
      );
      return (await this.views(store.manager, [message], user))[0];
    });
  }

  private async otherParty(
    manager: EntityManager,
    author: Party,
    requestorId: string,
    record: Parameters<RequestsService['reviewersOf']>[1],
    authorId: string,
  ) {
    if (author === 'reviewer') {
      const requestor = await this.directory.person(manager, requestorId);
      return requestor ? [requestor] : [];
    }
    return (await this.requestsService.reviewersOf(manager, record)).filter((p) => p.id !== authorId);
  }

  private async views(manager: EntityManager, messages: RequestMessage[], viewer: AuthUser) {
    const names = await this.directory.usernames(
      manager,
      messages.map((m) => m.userId),
    );
    return messages.map((m) => messageView(m, names.get(m.userId) ?? '', viewer));
  }
}
