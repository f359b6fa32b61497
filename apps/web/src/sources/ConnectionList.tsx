import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { StatusAlert } from '../components/StatusAlert';
import { sourceKeys } from '../shared/query-keys';
import { SavedItems } from './SavedItems';
import { type Connection, connectionsApi } from './sources-api';

// Spec section 8 (Connections), word for word.
export const NO_CONNECTIONS = 'No connections available, please create one.';
export const LOADING_CONNECTIONS_FAILED = 'Loading connections failed...';
export const DELETE_FAILED = 'Delete connection failed...';
/** Spec section 9: the no-connections alert hides after 3 s. */
const NO_CONNECTIONS_MS = 3_000;

/** The saved connections: Select one to browse its tables, or delete it. */
export function ConnectionList({
  selected,
  onSelect,
  onRemoved,
}: {
  selected: string | null;
  onSelect(connection: Connection): void;
  onRemoved(connection: Connection): void;
}) {
  const queryClient = useQueryClient();
  const connections = useQuery({ queryKey: sourceKeys.connections, queryFn: ({ signal }) => connectionsApi.list(signal), retry: false });
  const list = connections.data?.results ?? (connections.isError ? [] : undefined);

  // "No connections" shows for 3 s whenever the list is (or becomes) empty.
  const [showNone, setShowNone] = useState(false);
  useEffect(() => {
    if (connections.data?.results.length === 0) setShowNone(true);
  }, [connections.data]);
  useEffect(() => {
    if (!showNone) return;
    const timer = setTimeout(() => setShowNone(false), NO_CONNECTIONS_MS);
    return () => clearTimeout(timer);
  }, [showNone]);

  return (
    <SavedItems
      title="Available connections"
      items={list}
      loadingLabel="Loading connections…"
      notices={
        <>
          {connections.isError && <StatusAlert status="error" text={LOADING_CONNECTIONS_FAILED} />}
          {showNone && <StatusAlert status="info" text={NO_CONNECTIONS} />}
        </>
      }
      describe={(c) => (
        <>
          {c.name} on {c.host}:{c.port} ({c.sqltype}, {c.username})
        </>
      )}
      nameOf={(c) => c.name}
      action={{ label: 'Select', ariaLabel: (name) => `Select ${name}`, onClick: onSelect }}
      highlighted={selected}
      remove={{
        ariaLabel: (name) => `Delete connection ${name}`,
        title: 'Delete connection',
        message: 'Are you sure you want to delete this connection?',
        failed: DELETE_FAILED,
        run: (connection) => connectionsApi.remove(connection.id),
        onRemoved: (connection) => {
          queryClient.setQueryData<{ results: Connection[] }>(
            sourceKeys.connections,
            (page) => page && { ...page, results: page.results.filter((c) => c.id !== connection.id) },
          );
          void queryClient.invalidateQueries({ queryKey: sourceKeys.connections });
          queryClient.removeQueries({ queryKey: sourceKeys.tables(connection.id) });
          onRemoved(connection);
        },
      }}
    />
  );
}
