import { useState } from 'react';
import { Button, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreatedRecords } from '../components/CreatedRecords';
import { LoadingState } from '../components/LoadingState';
import { StatusAlert } from '../components/StatusAlert';
import type { CatalogueRecord } from '../records/types';
import { recordKeys, sourceKeys } from '../shared/query-keys';
import { ColumnSelectionModal } from './ColumnSelectionModal';
import { hashingProblem, LinkageKeyPanel, useLinkageKey } from './LinkageKeyPanel';
import { choicesToFields, type ColumnChoice } from './private-columns';
import { type Connection, connectionsApi } from './sources-api';

// Spec section 8 (Connections), word for word.
export const LOADING_CONNECTION_FAILED = 'Loading connection failed...';
const NOT_SAVED = 'Record could not be saved. Please contact support.';

/** The tables of the selected connection; Index Table previews one and indexes the chosen columns (spec section 2). */
export function TableBrowser({ connection }: { connection: Connection }) {
  const queryClient = useQueryClient();
  const linkage = useLinkageKey();
  const [table, setTable] = useState<string | null>(null);
  const [indexError, setIndexError] = useState<string | null>(null);
  const [created, setCreated] = useState<CatalogueRecord[]>([]);

  const tables = useQuery({ queryKey: sourceKeys.tables(connection.id), queryFn: ({ signal }) => connectionsApi.tables(connection.id, signal), retry: false });
  const preview = useQuery({
    queryKey: sourceKeys.preview(connection.id, table ?? ''),
    queryFn: () => connectionsApi.preview(connection.id, table ?? ''),
    enabled: table !== null,
    retry: false,
  });
  const createRecord = useMutation({
    mutationFn: (fields: Parameters<typeof connectionsApi.createMetadata>[2]) => connectionsApi.createMetadata(connection.id, table ?? '', fields),
    onMutate: () => setIndexError(null),
    onSuccess: (record) => {
      setCreated((current) => [record, ...current]);
      setTable(null);
      void queryClient.invalidateQueries({ queryKey: recordKeys.lists() });
    },
    onError: () => setIndexError(NOT_SAVED),
  });

  const open = (name: string) => {
    setIndexError(null);
    setTable(name);
    // The same table again after a failed preview: ask again.
    if (name === table) void preview.refetch();
  };
  const index = (choices: ColumnChoice[]) => {
    if (!preview.data) return;
    const { hashed, fuzzy, formatList } = choicesToFields(preview.data.HEADERS, choices);
    if (hashingProblem(linkage, choices)) return;
    createRecord.mutate({
      encryptList: hashed,
      ...(fuzzy.length > 0 && { fuzzyList: fuzzy }),
      formatList,
      ...(hashed.length && linkage.key ? { linkageKey: linkage.key } : {}),
    });
  };
  const list = tables.data?.results;

  return (
    <>
      <Stack gap="3" data-testid="connection-tables">
        <Text fontWeight="semibold" fontSize="lg">
          Tables of {connection.name}
        </Text>
        {tables.isPending && <LoadingState label="Loading tables…" />}
        {(tables.isError || preview.isError) && <StatusAlert status="error" text={LOADING_CONNECTION_FAILED} />}
        {list && list.length === 0 && <Text color="fg.muted">This database has no tables.</Text>}
        {list && list.length > 0 && (
          <Table.Root size="sm" aria-label="Tables">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Table</Table.ColumnHeader>
                <Table.ColumnHeader>Columns</Table.ColumnHeader>
                <Table.ColumnHeader />
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {list.map((t) => (
                <Table.Row key={t.name}>
                  <Table.Cell fontWeight="medium">{t.name}</Table.Cell>
                  <Table.Cell>{t.columns.map((c) => `${c.name} (${c.type})`).join(', ')}</Table.Cell>
                  <Table.Cell textAlign="end">
                    <Button size="sm" colorPalette="teal" onClick={() => open(t.name)} aria-label={`Index Table ${t.name}`}>
                      Index Table
                    </Button>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </Stack>

      <CreatedRecords records={created} />

      {table !== null && preview.data && (
        <ColumnSelectionModal
          open
          title={`Index ${table}`}
          headers={preview.data.HEADERS}
          rows={preview.data.RAW}
          totalRows={preview.data.TOTAL_ROWS}
          variant="create"
          busy={createRecord.isPending}
          error={indexError}
          validate={(choices) => hashingProblem(linkage, choices)}
          onClose={() => setTable(null)}
          onSubmit={index}
        >
          {(choices, showErrors) => (choices.some((c) => c.hash) ? <LinkageKeyPanel state={linkage} required={showErrors} /> : null)}
        </ColumnSelectionModal>
      )}
    </>
  );
}
