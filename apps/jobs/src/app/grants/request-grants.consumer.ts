import { RequestProjectionConsumer } from '@dc/platform';
import { RequestGrantsRepository } from './request-grants.repository';

/**
 * Follows access requests (request.* events), as relations does: a LINK job's side read under a
 * grant shows its row pairs only while that very request grants (the registry's reads join them).
 */
export class RequestGrantsConsumer extends RequestProjectionConsumer(RequestGrantsRepository) {}
