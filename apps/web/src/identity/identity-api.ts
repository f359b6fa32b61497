import { api } from '../api/client';
import type {
  Account,
  ApiKeys,
  Id,
  MessageResponse,
  NewAccountRequest,
  Organisation,
  Paged,
  PasswordCheckRequest,
  PasswordCheckResponse,
  RegisterRequest,
  TokenResponse,
} from '../api/types';

/** The account and profile calls of spec section 7; every screen of identity goes through these. */
export const identityApi = {
  login: (username: string, password: string) => api.post<TokenResponse>('/api-token-auth/', { username, password }, { token: null }),
  register: (body: RegisterRequest) => api.post<MessageResponse & { username?: string; email?: string }>('/api/register/', body, { token: null }),
  requestPasswordReset: (email: string) => api.post<MessageResponse>('/api/password/confirm/', { email }, { token: null }),
  resetPassword: (body: PasswordCheckRequest) => api.post<PasswordCheckResponse>('/api/password/check/', body, { token: null }),

  changeProfile: (body: { first_name: string; last_name: string }) => api.put<unknown>('/api/change-profile-information/', body),
  changePassword: (body: { old_password: string; new_password: string; new_password_confirm: string }) =>
    api.put<unknown>('/api/change-password/', body),

  organisation: (id: Id, signal?: AbortSignal) => api.get<Organisation>(`/api/organisation/${id}/`, { signal }),
  updateOrganisation: (id: Id, body: { name: string; email: string; description: string }) =>
    api.put<Organisation>(`/api/organisation/${id}/`, body),

  /** Every account of the organisation: lists are paged (architecture section 5), so follow `next`. */
  accounts: async (signal?: AbortSignal): Promise<Account[]> => {
    const all: Account[] = [];
    let page: string | null = '/api/account/?page_size=500';
    while (page) {
      const data: Account[] | Paged<Account> = await api.get<Account[] | Paged<Account>>(page, { signal });
      if (Array.isArray(data)) return data;
      all.push(...data.results);
      page = data.next;
    }
    return all;
  },
  createAccount: (body: NewAccountRequest) => api.post<Account>('/api/account/', body),
  updateAccount: (id: Id, body: { username: string; first_name: string; last_name: string; email: string }) =>
    api.put<Account>(`/api/account/${id}/`, body),
  setAccountGroups: (id: Id, groups: number[]) => api.patch<Account>(`/api/account/${id}/`, { groups }),
  deleteAccount: (id: Id) => api.delete<unknown>(`/api/account/${id}/`),
  setAccountPassword: (id: Id, body: { new_password: string; new_password_confirm: string }) =>
    api.post<unknown>(`/api/account/${id}/set_password/`, body),

  apiKeys: (signal?: AbortSignal) => api.get<ApiKeys>('/api/user-api-keys/', { signal }),
  createApiKeys: (password: string) => api.post<ApiKeys>('/api/user-api-keys/', { password }),
};

export const identityKeys = {
  organisation: (id: Id) => ['organisation', id] as const,
  accounts: ['accounts'] as const,
  apiKeys: ['user-api-keys'] as const,
};
