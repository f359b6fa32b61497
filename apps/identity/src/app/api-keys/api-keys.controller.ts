import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe, isoDateTime } from '@dc/platform';
import { ApiKeysService } from './api-keys.service';
import { NewApiKeyDto, newApiKeySchema } from './dto/api-keys.dto';
import { z } from 'zod';

const apiKeyPairSchema = z.object({ api_token: z.string().nullable(), api_secret: z.string().nullable(), created: isoDateTime.nullable() });

@Controller('api/user-api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  /** `{api_token, api_secret}` of the caller, or both null. */
  @ApiContract({ summary: "The caller's API token (the secret is shown only when made)", responses: { 200: apiKeyPairSchema } })
  @Get()
  get(@CurrentUser() caller: AuthUser) {
    return this.keys.get(caller);
  }

  /** `{password}` → a new `{api_token, api_secret}`, replacing the old pair. */
  @ApiContract({
    summary: 'Make a new API token and secret (replaces the old pair); needs the password',
    body: newApiKeySchema,
    responses: { 201: apiKeyPairSchema },
  })
  @Post()
  @HttpCode(201)
  create(@CurrentUser() caller: AuthUser, @Body(new SchemaPipe(newApiKeySchema)) dto: NewApiKeyDto) {
    return this.keys.create(caller, dto.password);
  }

  /** Revokes the pair. */
  @ApiContract({ summary: 'Revoke the API token and secret', responses: { 204: null } })
  @Delete()
  @HttpCode(204)
  async revoke(@CurrentUser() caller: AuthUser): Promise<void> {
    await this.keys.revoke(caller);
  }
}
