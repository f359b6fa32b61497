import { useState } from 'react';
import { Button, Flex, HStack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { RequestDialog } from '../sharing/RequestDialog';
import { LOGIN_TO_REQUEST_RECORD } from '../sharing/texts';
import { useSignedDownload } from '../sharing/use-signed-download';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../auth/AuthProvider';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { toApiError } from '../forms/use-form';
import { toaster } from '../shell/toaster';
import { recordActionsFor } from './record-actions';
import { recordsApi } from './records-api';
import type { CatalogueRecord } from './types';
import { recordKeys } from '../shared/query-keys';

export const DELETE_QUESTION = 'Are you sure you want to delete this record?';

/** Download (Open access) or request (Request access), Edit and Delete, as the caller may. */
export function RecordActions({ record }: { record: CatalogueRecord }) {
  const { isSignedIn } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const removeRecord = useMutation({ mutationFn: recordsApi.remove });
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [requesting, setRequesting] = useState(false);
  // Download shows only with a download_url (recordActionsFor).
  const { download, downloading } = useSignedDownload(record.id, () => recordsApi.downloadLink(record.download_url ?? ''));

  const request = () => {
    if (!isSignedIn) {
      toaster.create({ title: LOGIN_TO_REQUEST_RECORD, type: 'warning' });
      return;
    }
    setRequesting(true);
  };

  const remove = async () => {
    setDeleting(true);
    setDeleteError(null);
    try {
      await removeRecord.mutateAsync(record.id);
      queryClient.removeQueries({ queryKey: recordKeys.detail(record.id) });
      toaster.create({ title: 'The record was deleted.', type: 'success' });
      navigate('/records');
    } catch (error) {
      setDeleteError(toApiError(error).message);
      setDeleting(false);
    }
  };

  const actions = recordActionsFor(record);
  const ownerSide = record.edit || record.can_delete;
  return (
    <Flex gap="3" wrap="wrap" justify="space-between" align="center" w="100%">
      {/* What to do with the data, apart from what changes the record: Delete is never beside Download. */}
      <HStack gap="3" wrap="wrap" role="group" aria-label="Data">
        {actions.download && (
          <Button colorPalette={actions.downloadColour} loading={downloading} onClick={download}>
            Download
          </Button>
        )}
        {actions.request && (
          <Button colorPalette="blue" variant="outline" onClick={request} disabled={actions.requestDisabled}>
            {actions.requestLabel}
          </Button>
        )}
      </HStack>
      {requesting && <RequestDialog recordId={record.id} recordName={record.name} onClose={() => setRequesting(false)} />}
      {ownerSide && (
        <HStack gap="3" wrap="wrap" role="group" aria-label="Manage record">
          {record.edit && (
            <Button asChild variant="outline">
              <RouterLink to={`/records/edit/${record.id}`}>Edit</RouterLink>
            </Button>
          )}
          {record.can_delete && (
            <Button variant="outline" colorPalette="red" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          )}
        </HStack>
      )}
      <ConfirmDialog
        open={confirming}
        title="Delete record"
        message={DELETE_QUESTION}
        confirmLabel="Delete"
        busy={deleting}
        onConfirm={remove}
        onCancel={() => {
          setConfirming(false);
          setDeleteError(null);
        }}
      >
        {deleteError && <Text color="fg.error">{deleteError}</Text>}
      </ConfirmDialog>
    </Flex>
  );
}
