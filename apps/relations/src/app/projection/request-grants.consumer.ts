import { RequestProjectionConsumer } from '@dc/platform';
import { RequestGrantsRepository } from '../access/request-grants.repository';

/** Keeps relations' projection of the requests service's request.* events (who holds a grant). */
export class RequestGrantsConsumer extends RequestProjectionConsumer(RequestGrantsRepository) {}
