import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

/** Where identity's token checks are asked from outside this process (see TOKEN_STATUS_PATH). */
export const TOKEN_STATUS_PATH = 'internal/token-status';

/**
 * Distributed mode: the gateway asks here whether a token is still current before it forwards the
 * call to another service (those know only the signature). The global guard does the work: it
 * answers 401 for a token whose account was deleted, deactivated, or changed its password, groups,
 * client type or username. Outside /api, so the gateway's route table never sends callers here.
 */
@ApiExcludeController()
@Controller(TOKEN_STATUS_PATH)
export class TokenStatusController {
  @Get()
  @HttpCode(204)
  current(): void {
    // Reaching this line means the guard accepted the token.
  }
}
