import { api } from '../api/client';
import { type ResponseOf, typedApi } from '../api/typed';
import type {
  Account,
  ClientType,
  ApiKeys,
  Id,
  MessageResponse,
  NewAccountRequest,
  Organisation,
  PasswordCheckRequest,
  PasswordCheckResponse,
  RegisterRequest,
  TokenResponse,
} from '../api/types';

type AccountPage = ResponseOf<'/api/account', 'get'>;

/** The account and profile calls of spec section 7; every screen of identity goes through these. */
export const identityApi = {
  login: (username: string, password: string): Promise<TokenResponse> => typedApi.post('/api-token-auth', { username, password }, { token: null }),
  register: (body: RegisterRequest) => typedApi.post('/api/register', body, { token: null }),
  requestPasswordReset: (email: string): Promise<MessageResponse> => typedApi.post('/api/password/confirm', { email }, { token: null }),
  resetPassword: (body: PasswordCheckRequest): Promise<PasswordCheckResponse> => typedApi.post('/api/password/check', body, { token: null }),

  changeProfile: (body: { first_name: string; last_name: string }) => typedApi.put('/api/change-profile-information', body),
  changePassword: (body: { old_password: string; new_password: string; new_password_confirm: string }) => typedApi.put('/api/change-password', body),

  organisation: (id: Id, signal?: AbortSignal): Promise<Organisation> => typedApi.get('/api/organisation/{id}', { params: { id }, signal }),
  updateOrganisation: (id: Id, body: { name: string; email: string; description: string }) => typedApi.put('/api/organisation/{id}', body, { params: { id } }),

  /** Every account of the organisation: lists are paged (architecture section 5), so follow `next`. */
  accounts: async (signal?: AbortSignal): Promise<Account[]> => {
    let data: AccountPage = await typedApi.get('/api/account', { query: { page_size: 500 }, signal });
    const all: Account[] = [...data.results];
    // `next` is a link the server gives, so it is followed as it is.
    while (data.next) {
      data = await api.get<AccountPage>(data.next, { signal });
      all.push(...data.results);
    }
    return all;
  },
  createAccount: (body: NewAccountRequest): Promise<Account> => typedApi.post('/api/account', body),
  updateAccount: (id: Id, body: { username: string; first_name: string; last_name: string; email: string }) =>
    typedApi.put('/api/account/{id}', body, { params: { id } }),
  setAccountGroups: (id: Id, groups: number[]): Promise<Account> => typedApi.patch('/api/account/{id}', { groups }, { params: { id } }),
  setAccountPlan: (id: Id, clientType: ClientType): Promise<Account> => typedApi.patch('/api/account/{id}', { client_type: clientType }, { params: { id } }),
  deleteAccount: (id: Id) => typedApi.delete('/api/account/{id}', { params: { id } }),
  setAccountPassword: (id: Id, body: { new_password: string; new_password_confirm: string }) =>
    typedApi.post('/api/account/{id}/set_password', body, { params: { id } }),

  apiKeys: (signal?: AbortSignal): Promise<ApiKeys> => typedApi.get('/api/user-api-keys', { signal }),
  createApiKeys: (password: string): Promise<ApiKeys> => typedApi.post('/api/user-api-keys', { password }),
};
