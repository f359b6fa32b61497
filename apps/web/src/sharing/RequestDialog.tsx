import { useEffect, useState } from 'react';
import { Alert, Button, CloseButton, Dialog, Portal, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../auth/AuthProvider';
import { LoadingState } from '../components/LoadingState';
import { toApiError } from '../forms/use-form';
import { recordKeys } from '../records/records-api';
import { toaster } from '../shell/toaster';
import { WORKSPACE_RECORDS_KEY } from '../workspace/use-records';
import { RequestPanel } from './RequestPanel';
import { sharingApi, sharingKeys } from './sharing-api';
import { LOGIN_TO_REQUEST_RECORD, OPENING_REQUEST } from './texts';
import type { AccessRequest } from './types';

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

  useEffect(() => {
    let live = true;
    sharingApi
      .openRequest(recordId)
      .then((answer) => {
        if (!live) return;
        if ('request' in answer) {
          setNotice(answer.message);
          setRequest(answer.request);
        } else setRequest(answer);
        void queryClient.invalidateQueries({ queryKey: recordKeys.record(recordId) });
      })
      .catch((error: unknown) => {
        if (!live) return;
        toaster.create({ type: 'warning', title: LOGIN_TO_REQUEST_RECORD });
        setFailure(toApiError(error).message);
      });
    return () => {
      live = false;
    };
  }, [recordId, queryClient]);

  const refreshRecord = () => {
    void queryClient.invalidateQueries({ queryKey: recordKeys.record(recordId) });
    void queryClient.invalidateQueries({ queryKey: WORKSPACE_RECORDS_KEY });
    void queryClient.invalidateQueries({ queryKey: sharingKeys.sent });
  };

  return (
    <Dialog.Root open onOpenChange={(d) => !d.open && onClose()} placement="center" scrollBehavior="inside" size="lg">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Request: {recordName}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
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
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                Close
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close dialog" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
