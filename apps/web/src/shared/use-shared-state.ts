import { useQuery, useQueryClient } from '@tanstack/react-query';

/**
 * State kept in the query cache under `key` instead of in a component: it outlives the component
 * (a resized window moves the work area between the side and the bottom bar, which mounts it anew)
 * and every component using the key sees the same value. Not a server query: never refetched.
 */
export function useSharedState<T>(key: readonly unknown[], initial: T): [T, (update: (old: T) => T) => void] {
  const queryClient = useQueryClient();
  const value = useQuery({ queryKey: key, queryFn: () => initial, initialData: initial, staleTime: Infinity, gcTime: Infinity }).data as T;
  const set = (update: (old: T) => T) => queryClient.setQueryData<T>(key, (old) => update(old ?? initial));
  return [value, set];
}
