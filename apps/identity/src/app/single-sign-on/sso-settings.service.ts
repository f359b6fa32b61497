import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DATA_ADMIN } from '@dc/contracts';
import { AuthUser, DetailError, FieldValidationError, SecretCipher } from '@dc/platform';
import { NO_PERMISSION } from '../accounts/permissions';
import { CLIENT_TYPE_ABOVE_OWN } from '../accounts/accounts.service';
import { SsoSettingsDto } from './dto/sso.dto';
import { IdentityProviderClient, IdentityProviderError } from './identity-provider-client';
import { normaliseDomains, type SsoProvider } from './sso';
import { SsoRepository } from './sso.repository';

export const SECRET_REQUIRED = 'Enter the client secret the provider gave the product.';
export const NO_PROVIDER = 'No single sign-on provider is configured for your organisation.';

/** What the issuer check says, under the issuer field. */
export function issuerProblem(error: IdentityProviderError): string {
  if (error.failure === 'address-refused')
    return 'The issuer is on a local or private network address; the operator must list it in ALLOWED_PRIVATE_ENDPOINTS.';
  return `The provider's discovery document (<issuer>/.well-known/openid-configuration) could not be read: ${error.message}`;
}

/** The organisation's provider settings: its Data Admins only; the client secret is sealed and never returned. */
@Injectable()
export class SsoSettingsService {
  constructor(
    private readonly sso: SsoRepository,
    private readonly cipher: SecretCipher,
    private readonly client: IdentityProviderClient,
  ) {}

  async get(caller: AuthUser, redirectUri: string) {
    requireDataAdmin(caller);
    const provider = await this.sso.providerOf(caller.organisationId);
    return { redirect_uri: redirectUri, provider: provider ? view(provider) : null };
  }

  async save(caller: AuthUser, dto: SsoSettingsDto, redirectUri: string) {
    requireDataAdmin(caller);
    const existing = await this.sso.providerOf(caller.organisationId);
    const errors: Record<string, string[]> = {};
    if (!existing && dto.client_secret === undefined) errors.client_secret = [SECRET_REQUIRED];
    if (caller.clientType !== 'STANDARD' && dto.client_type !== 'BASIC') errors.client_type = [CLIENT_TYPE_ABOVE_OWN];
    if (Object.keys(errors).length) throw new FieldValidationError(errors);
    const id = existing?.id ?? randomUUID();
    const clientSecret = dto.client_secret ?? this.cipher.decrypt(existing!.clientSecretSealed, existing!.id);
    try {
      await this.client.check({ issuer: dto.issuer, clientId: dto.client_id, clientSecret });
    } catch (error) {
      if (error instanceof IdentityProviderError) throw new FieldValidationError({ issuer: [issuerProblem(error)] });
      throw error;
    }
    const saved = await this.sso.saveProvider({
      id,
      organisationId: caller.organisationId,
      name: dto.name,
      issuer: dto.issuer,
      clientId: dto.client_id,
      clientSecretSealed: this.cipher.encrypt(clientSecret, id),
      allowedDomains: normaliseDomains(dto.allowed_domains),
      clientType: dto.client_type,
    });
    return { redirect_uri: redirectUri, provider: view(saved) };
  }

  async remove(caller: AuthUser): Promise<void> {
    requireDataAdmin(caller);
    if (!(await this.sso.deleteProvider(caller.organisationId))) throw new DetailError(NO_PROVIDER, 404);
  }
}

function requireDataAdmin(caller: AuthUser): void {
  if (!caller.groups.includes(DATA_ADMIN)) throw new DetailError(NO_PERMISSION, 403);
}

function view(provider: SsoProvider) {
  return {
    id: provider.id,
    name: provider.name,
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret_set: true,
    allowed_domains: provider.allowedDomains,
    client_type: provider.clientType,
    updated_at: provider.updatedAt.toISOString(),
  };
}
