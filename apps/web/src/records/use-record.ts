import { useQuery } from '@tanstack/react-query';
import { EXTRACTION_POLL_MS, recordKeys, recordsApi } from './records-api';

/** One record; polled every 3 s while its metadata extraction runs (spec section 9). */
export function useRecord(id: string) {
  return useQuery({
    queryKey: recordKeys.record(id),
    queryFn: ({ signal }) => recordsApi.get(id, signal),
    enabled: !!id,
    refetchInterval: (query) => (query.state.data?.extraction_status === 'working' ? EXTRACTION_POLL_MS : false),
  });
}
