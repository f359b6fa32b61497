import { useState, type ReactNode } from 'react';
import { Button, CloseButton, HStack, List, Stack, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LoadingState } from '../components/LoadingState';

interface SavedItemsProps<T extends { id: string }> {
  /** The heading, which also names the list. */
  title: string;
  /** Undefined while loading. */
  items: T[] | undefined;
  loadingLabel: string;
  /** Shown when the list is empty (none: nothing). */
  emptyText?: string;
  /** Alerts between the loading state and the list. */
  notices?: ReactNode;
  describe(item: T): ReactNode;
  /** The item's text in the buttons' names ("Select {name}", "Delete connection {name}"). */
  nameOf(item: T): string;
  action: { label: string; ariaLabel(name: string): string; onClick(item: T): void };
  highlighted?: string | null;
  remove: { ariaLabel(name: string): string; title: string; message: string; failed: string; run(item: T): Promise<unknown>; onRemoved(item: T): void };
}

/**
 * A saved connection or cloud account list (Add data, spec section 2): each item with its action
 * (Select, Load) and a delete button that asks first and says when the delete failed.
 */
export function SavedItems<T extends { id: string }>({
  title,
  items,
  loadingLabel,
  emptyText,
  notices,
  describe,
  nameOf,
  action,
  highlighted,
  remove,
}: SavedItemsProps<T>) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const deletion = useMutation({
    mutationFn: (item: T) => remove.run(item),
    onSuccess: (_answer, item) => {
      remove.onRemoved(item);
      setDeleting(null);
    },
  });
  const cancel = () => {
    setDeleting(null);
    deletion.reset();
  };

  return (
    <Stack gap="3">
      <Text fontWeight="semibold" fontSize="lg">
        {title}
      </Text>
      {items === undefined && <LoadingState label={loadingLabel} />}
      {notices}
      {items && items.length === 0 && emptyText && <Text color="fg.muted">{emptyText}</Text>}
      {items && items.length > 0 && (
        <List.Root variant="plain" gap="2" aria-label={title}>
          {items.map((item) => (
            <List.Item key={item.id}>
              <HStack borderWidth="1px" borderRadius="md" px="3" py="2" w="100%" bg={highlighted === item.id ? 'teal.subtle' : undefined}>
                <Text flex="1">{describe(item)}</Text>
                <Button size="sm" variant="outline" onClick={() => action.onClick(item)} aria-label={action.ariaLabel(nameOf(item))}>
                  {action.label}
                </Button>
                <CloseButton
                  size="sm"
                  aria-label={remove.ariaLabel(nameOf(item))}
                  onClick={() => {
                    deletion.reset();
                    setDeleting(item);
                  }}
                />
              </HStack>
            </List.Item>
          ))}
        </List.Root>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={remove.title}
        message={remove.message}
        confirmLabel="Delete"
        onConfirm={() => deleting && deletion.mutate(deleting)}
        onCancel={cancel}
      >
        {deletion.isError && <Text color="fg.error">{remove.failed}</Text>}
      </ConfirmDialog>
    </Stack>
  );
}
