import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toApiError } from '../forms/use-form';
import { toaster } from '../shell/toaster';
import { recordKeys } from '../shared/query-keys';

/**
 * Download of a record's data: the short-lived signed link is asked for afresh at each click and
 * opened in a new window (the details page's Download, and an approved request's).
 */
export function useSignedDownload(recordId: string, signedLink: () => Promise<{ url: string }>) {
  const queryClient = useQueryClient();
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    // Opened before the call so pop-up blockers see a click, pointed at the link afterwards.
    const target = window.open('about:blank', '_blank');
    setDownloading(true);
    try {
      const { url } = await queryClient.fetchQuery({ queryKey: recordKeys.download(recordId), queryFn: signedLink, staleTime: 0, gcTime: 0 });
      if (target) target.location.href = url;
      else window.open(url, '_blank');
    } catch (error) {
      target?.close();
      toaster.create({ title: toApiError(error).message, type: 'error' });
    } finally {
      setDownloading(false);
    }
  };
  return { download, downloading };
}
