import { useState } from 'react';
import { Button, HStack, Text } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toApiError } from '../forms/use-form';
import { toaster } from '../shell/toaster';
import { recordKeys } from '../shared/query-keys';
import { sharingApi } from './sharing-api';
import type { AccessRequest } from './types';

/** The grant is live: approved, not expired, and the record still exists. */
export const grantsDownload = (request: Pick<AccessRequest, 'role' | 'status' | 'expired' | 'record_deleted'>) =>
  request.role === 'requestor' && request.status === 'approved' && !request.expired && !request.record_deleted;

/**
 * Download on an approved request in My Requests: the record's details (as its page reads them) say
 * with download_url whether the data is stored on the product and the caller may have it; the
 * signed link is asked for afresh at each click and opened in a new window, as on the details page.
 */
export function RequestDownload({ request }: { request: AccessRequest }) {
  const queryClient = useQueryClient();
  const [downloading, setDownloading] = useState(false);
  const record = useQuery({
    queryKey: recordKeys.detail(request.record),
    queryFn: ({ signal }) => sharingApi.record(request.record, signal),
  });

  if (record.isPending) return null;
  if (record.isError || !record.data.download_url)
    return (
      <Text fontSize="sm" color="fg.muted" data-testid="request-no-download">
        The data of this record is not stored on the product: ask {request.data_admin || 'the data administrator'} for it in the messages below.
      </Text>
    );

  const download = async () => {
    // Opened before the call so pop-up blockers see a click, pointed at the link afterwards.
    const target = window.open('about:blank', '_blank');
    setDownloading(true);
    try {
      const { url } = await queryClient.fetchQuery({
        queryKey: recordKeys.download(request.record),
        queryFn: () => sharingApi.downloadLink(request.record),
        staleTime: 0,
        gcTime: 0,
      });
      if (target) target.location.href = url;
      else window.open(url, '_blank');
    } catch (error) {
      target?.close();
      toaster.create({ title: toApiError(error).message, type: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <HStack gap="3" wrap="wrap">
      <Button colorPalette="blue" loading={downloading} onClick={download}>
        Download
      </Button>
      <Text fontSize="sm" color="fg.muted">
        Your request was approved: the data opens in a new window.
      </Text>
    </HStack>
  );
}
