import { Button, HStack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { recordKeys } from '../shared/query-keys';
import { sharingApi } from './sharing-api';
import type { AccessRequest } from './types';
import { useSignedDownload } from './use-signed-download';

/** The grant is live: approved, not expired, and the record still exists. */
export const grantsDownload = (request: Pick<AccessRequest, 'role' | 'status' | 'expired' | 'record_deleted'>) =>
  request.role === 'requestor' && request.status === 'approved' && !request.expired && !request.record_deleted;

/**
 * Download on an approved request in My Requests: the record's details (as its page reads them) say
 * with download_url whether the data is stored on the product and the caller may have it; the
 * signed link is asked for afresh at each click and opened in a new window, as on the details page.
 */
export function RequestDownload({ request }: { request: AccessRequest }) {
  const { download, downloading } = useSignedDownload(request.record, () => sharingApi.downloadLink(request.record));
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
