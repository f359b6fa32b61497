import { useMutation, useQueryClient } from '@tanstack/react-query';
import { recordKeys } from '../shared/query-keys';
import { uploadRecords } from './records-api';

interface Upload {
  body: FormData;
  onProgress(fraction: number): void;
  signal?: AbortSignal;
}

/** POST /api/records/ with upload progress; the Workspace lists are read again afterwards. */
export function useUploadRecords() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, onProgress, signal }: Upload) => uploadRecords(body, onProgress, signal),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: recordKeys.lists() }),
  });
}
