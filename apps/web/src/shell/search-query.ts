import { useCallback } from 'react';
import { createSearchParams, useNavigate, useSearchParams } from 'react-router-dom';

/** The records search lives in the URL (`#/records?query=...`) so it survives reloads and can be shared. */
export const QUERY_PARAM = 'query';

export function useSearchQuery(): string {
  const [params] = useSearchParams();
  return params.get(QUERY_PARAM) ?? '';
}

/** Sets the query and goes to the records list. */
export function useSubmitSearch(): (query: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (query: string) => {
      const trimmed = query.trim();
      navigate({ pathname: '/records', search: trimmed ? `?${createSearchParams({ [QUERY_PARAM]: trimmed })}` : '' });
    },
    [navigate],
  );
}
