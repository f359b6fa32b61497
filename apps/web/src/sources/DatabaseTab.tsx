import { useState } from 'react';
import { Stack } from '@chakra-ui/react';
import { ConnectionForm } from './ConnectionForm';
import { ConnectionList } from './ConnectionList';
import type { Connection } from './sources-api';
import { TableBrowser } from './TableBrowser';

/** Add data → Index Database Table (spec section 2): a new connection, the saved ones, and the selected one's tables. */
export function DatabaseTab() {
  const [selected, setSelected] = useState<{ connection: Connection; visit: number } | null>(null);
  return (
    <Stack gap="8" maxW="4xl">
      <ConnectionForm />
      <ConnectionList
        selected={selected?.connection.id ?? null}
        // Each Select starts the table browser afresh (its tables read again, no records created yet).
        onSelect={(connection) => setSelected((current) => ({ connection, visit: (current?.visit ?? 0) + 1 }))}
        onRemoved={(connection) => setSelected((current) => (current?.connection.id === connection.id ? null : current))}
      />
      {selected && <TableBrowser key={selected.visit} connection={selected.connection} />}
    </Stack>
  );
}
