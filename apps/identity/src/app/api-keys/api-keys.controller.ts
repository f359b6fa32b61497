import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { AuthUser, CurrentUser, SchemaPipe } from '@dc/platform';
import { ApiKeysService } from './api-keys.service';
import { NewApiKeyDto, newApiKeySchema } from './dto/api-keys.dto';

@Controller('api/user-api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  /** `{api_token, api_secret}` of the caller, or both null. */
  @Get()
  get(@CurrentUser() caller: AuthUser) {
    return this.keys.get(caller);
  }

  /** `{password}` → a new `{api_token, api_secret}`, replacing the old pair. */
  @Post()
  @HttpCode(201)
  create(@CurrentUser() caller: AuthUser, @Body(new SchemaPipe(newApiKeySchema)) dto: NewApiKeyDto) {
    return this.keys.create(caller, dto.password);
  }

  /** Revokes the pair. */
  @Delete()
  @HttpCode(204)
  async revoke(@CurrentUser() caller: AuthUser): Promise<void> {
    await this.keys.revoke(caller);
  }
}
