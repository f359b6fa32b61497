import { useState } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toApiError } from '../forms/use-form';
import { toaster } from '../shell/toaster';
import { NO_PERMISSION } from './texts';

interface ConfirmedDeleteOptions {
  remove(id: string): Promise<unknown>;
  /** The list refreshed once an item is deleted. */
  listKey: QueryKey;
  deletedText: string;
  failedText: string;
}

/**
 * Deleting a list item after a confirm dialog (groups, policies): the item asked about, busy while
 * deleting, then the list refreshed with a toast, or a toast and the server's message on failure.
 */
export function useConfirmedDelete<T extends { id: string }>({ remove, listKey, deletedText, failedText }: ConfirmedDeleteOptions) {
  const queryClient = useQueryClient();
  const deletion = useMutation({ mutationFn: remove });
  const [deleting, setDeleting] = useState<T | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    setDeleteError(null);
    try {
      await deletion.mutateAsync(deleting.id);
      await queryClient.invalidateQueries({ queryKey: listKey });
      toaster.create({ type: 'success', title: deletedText });
      setDeleting(null);
    } catch (error) {
      const apiError = toApiError(error);
      toaster.create({ type: 'error', title: apiError.status === 403 ? NO_PERMISSION : failedText });
      setDeleteError(apiError.message);
    } finally {
      setBusy(false);
    }
  }

  const cancelDelete = () => {
    setDeleting(null);
    setDeleteError(null);
  };

  /** The confirm dialog's open state and buttons. */
  const dialog = { open: deleting !== null, busy, onConfirm: confirmDelete, onCancel: cancelDelete, confirmLabel: 'Delete' };
  return { deleting, setDeleting, deleteError, dialog };
}
