import { useEffect, useState } from 'react';
import { Alert, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../auth/AuthProvider';
import { LoadingState } from '../components/LoadingState';
import { ModalDialog } from '../components/ModalDialog';
import { toApiError } from '../forms/use-form';

import { toaster } from '../shell/toaster';

import { RequestPanel } from './RequestPanel';
import { sharingApi } from './sharing-api';
import { LOGIN_TO_REQUEST_RECORD, OPENING_REQUEST } from './texts';
import type { AccessRequest } from './types';
import { recordKeys, sharingKeys } from '../shared/query-keys';

/**
 * The request modal of a Request-access record (card or details): opens the caller's request (a new
 * one, or the existing one with the server's message) and shows its form.
 */
export function RequestDialog({ recordId, recordName, onClose }: { recordId: string; recordName: string; onClose(): void }) {
  const { clientType } = useAuth();
  const queryClient = useQueryClient();
  const [request, setRequest] = useState<AccessRequest | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // Opening the dialog opens (or finds) the caller's request for the record.
  const { mutate: openRequest } = useMutation({
    mutationFn: sharingApi.openRequest,
    onSuccess: (_answer, record) => void queryClient.invalidateQueries({ queryKey: recordKeys.detail(record) }),
  });
  useEffect(() => {
    // Callbacks of this call only: none once the dialog is gone, nor for a call a newer one replaced.
    openRequest(recordId, {
      onSuccess: (answer) => {
        if ('request' in answer) {
          setNotice(answer.message);
          setRequest(answer.request);
        } else setRequest(answer);
      },
      onError: (error) => {
        toaster.create({ type: 'warning', title: LOGIN_TO_REQUEST_RECORD });
        setFailure(toApiError(error).message);
      },
    });
  }, [recordId, openRequest]);

  const refreshRecord = () => {
    void queryClient.invalidateQueries({ queryKey: recordKeys.detail(recordId) });
    void queryClient.invalidateQueries({ queryKey: recordKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: sharingKeys.sent });
    void queryClient.invalidateQueries({ queryKey: sharingKeys.attentionAll });
  };

  return (
    <ModalDialog open onClose={onClose} placement="center" size="lg" title={`Request: ${recordName}`} closeLabel="Close dialog">
      {!request && !failure && <LoadingState label={OPENING_REQUEST} />}
      {failure && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Title>{failure}</Alert.Title>
        </Alert.Root>
      )}
      {notice && (
        <Text fontSize="sm" color="fg.muted" mb="3" role="status">
          {notice}
        </Text>
      )}
      {request && (
        <RequestPanel
          key={`${request.id}-${request.status}`}
          request={request}
          basic={clientType === 'BASIC'}
          onChanged={(updated) => {
            setRequest(updated);
            setNotice(null);
            refreshRecord();
          }}
          onClosed={() => {
            refreshRecord();
            onClose();
          }}
        />
      )}
    </ModalDialog>
  );
}
