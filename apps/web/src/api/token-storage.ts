/**
 * Where the session token lives: localStorage when the user chose "Remember me", otherwise
 * sessionStorage (gone when the tab closes).
 */
export const TOKEN_KEY = 'dc.token';

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    // Storage can be unavailable (privacy modes); the app then runs signed out.
    return fallback;
  }
}

export function readToken(): string | null {
  return safe(() => localStorage.getItem(TOKEN_KEY) ?? sessionStorage.getItem(TOKEN_KEY), null);
}

export function writeToken(token: string, remember: boolean): void {
  safe(() => {
    clearToken();
    (remember ? localStorage : sessionStorage).setItem(TOKEN_KEY, token);
  }, undefined);
}

export function clearToken(): void {
  safe(() => {
    localStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(TOKEN_KEY);
  }, undefined);
}
