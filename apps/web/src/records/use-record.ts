import { useQuery } from '@tanstack/react-query';
import { EXTRACTION_POLL_MS, recordsApi } from './records-api';
import { recordKeys } from '../shared/query-keys';

/** One record; polled every 3 s while its metadata extraction runs (spec section 9). */
export function useRecord(id: string) {
  return useQuery({
    queryKey: recordKeys.detail(id),
    queryFn: ({ signal }) => recordsApi.get(id, signal),
    enabled: !!id,
    refetchInterval: (query) => (query.state.data?.extraction_status === 'working' ? EXTRACTION_POLL_MS : false),
  });
}
