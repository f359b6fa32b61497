import { api } from '../api/client';
import type { ClientType, TokenResponse } from '../api/types';

/** A provider the login screen offers (GET /api/sso/providers/). */
export interface SsoProviderChoice {
  id: string;
  name: string;
}

/** The organisation's provider as its Data Admin sees it; the client secret is never sent back. */
export interface SsoProviderSettings {
  id: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret_set: boolean;
  allowed_domains: string[];
  client_type: ClientType;
  updated_at: string;
}

export interface SsoSettings {
  redirect_uri: string;
  provider: SsoProviderSettings | null;
}

export interface SsoSettingsRequest {
  name: string;
  issuer: string;
  client_id: string;
  /** Left out keeps the stored secret. */
  client_secret?: string;
  allowed_domains: string[];
  client_type: ClientType;
}

/** Single sign-on with an organisation's OpenID Connect provider (docs/single-sign-on.md). */
export const ssoApi = {
  providers: (signal?: AbortSignal) => api.get<SsoProviderChoice[]>('/api/sso/providers/', { token: null, signal }),
  /** Where the browser goes to sign in with a provider (a full page navigation, not a fetch). */
  startUrl: (providerId: string) => `/api/sso/providers/${encodeURIComponent(providerId)}/start/`,
  exchange: (result: string) => api.post<TokenResponse>('/api/sso/exchange/', { result }, { token: null }),
  settings: (signal?: AbortSignal) => api.get<SsoSettings>('/api/sso/settings/', { signal }),
  saveSettings: (body: SsoSettingsRequest) => api.put<SsoSettings>('/api/sso/settings/', body),
  removeSettings: () => api.delete<void>('/api/sso/settings/'),
};
