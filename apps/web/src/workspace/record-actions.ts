import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { toaster } from '../shell/toaster';
import { recordKeys } from '../shared/query-keys';
import { fetchDownloadLink } from './records-api';
import { recordLink } from './format';
import type { RecordCardData } from './types';

export { canDownload, canRequest, downloadColor, LOGIN_TO_LINK, LOGIN_TO_REQUEST, requestLabel } from '../shared/card-rules';

/** Opens the record's signed download link (asked for afresh at each click) in a new window. */
export function useDownloadRecord(): (record: RecordCardData) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (record: RecordCardData) => {
      // Opened before the call so the browser treats it as the click's own window, not a pop-up.
      const target = window.open('', '_blank');
      try {
        const { url } = await queryClient.fetchQuery({
          queryKey: recordKeys.download(record.id),
          queryFn: () => fetchDownloadLink(record.id),
          staleTime: 0,
          gcTime: 0,
        });
        if (target) target.location.href = url;
        else window.location.href = url;
      } catch (error) {
        target?.close();
        toaster.create({ type: 'error', title: error instanceof ApiError ? error.message : 'An error occured, please try again.' });
      }
    },
    [queryClient],
  );
}

/** Copies the record's link; shows it in the toast when the clipboard is not available. */
export function useCopyRecordLink(): (record: RecordCardData) => Promise<void> {
  return useCallback(async (record: RecordCardData) => {
    const link = recordLink(record.id);
    try {
      await navigator.clipboard.writeText(link);
      toaster.create({ type: 'success', title: 'Record link copied.', description: link });
    } catch {
      toaster.create({ type: 'info', title: 'Copy this record link:', description: link });
    }
  }, []);
}
