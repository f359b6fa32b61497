import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useAuth } from '../auth/AuthProvider';
import { deleteRecord, fetchRecordsPage } from './records-api';
import type { RecordsPage, RecordsSearch } from './types';
import { recordKeys } from '../shared/query-keys';

/** The Workspace list, page by page (infinite scroll). */
export function useRecordsList(search: RecordsSearch) {
  const { token } = useAuth();
  const signedIn = !!token;
  return useInfiniteQuery({
    queryKey: recordKeys.list(token, signedIn ? search : { ...search, view: 'all', group: '' }),
    queryFn: ({ pageParam, signal }) => fetchRecordsPage(search, pageParam, signedIn, signal),
    initialPageParam: 1,
    getNextPageParam: (last: RecordsPage, _pages, pageParam: number) => (last.next ? pageParam + 1 : undefined),
  });
}

/**
 * Deletes records one by one and drops each from every cached list as soon as it is gone: the
 * search index follows the catalogue through events, so a refetch straight away could still
 * return it.
 */
export function useDeleteRecords() {
  const queryClient = useQueryClient();
  const dropFromLists = (id: string) =>
    queryClient.setQueriesData<InfiniteData<RecordsPage, number>>(
      { queryKey: recordKeys.lists() },
      (data) =>
        data && {
          ...data,
          pages: data.pages.map((page) => {
            const results = page.results.filter((record) => record.id !== id);
            return { ...page, results, count: page.count - (page.results.length - results.length) };
          }),
        },
    );
  return useMutation({
    mutationFn: async (ids: string[]) => {
      for (const id of ids) {
        await deleteRecord(id);
        dropFromLists(id);
      }
      return ids;
    },
  });
}
