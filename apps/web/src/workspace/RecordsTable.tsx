import { useMemo, useState } from 'react';
import { Button, HStack, Link, Stack, Table, Text } from '@chakra-ui/react';
import { CompareDialog } from '../relations/CompareDialog';
import { toAreaRecord } from '../relations/work-area';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { formatDate, formatSize, truncate } from '../lib/format';
import { displayName, NAME_LIMIT, TYPE_LIMIT, visibilityLabel } from './format';
import type { RecordCardData } from './types';
import { TableScrollArea } from '../components/TableScrollArea';
import { HeadedTable } from '../components/DataTable';

const asAreaRecord = (record: RecordCardData) => toAreaRecord({ ...record, name: displayName(record.name, record.alt_name) });

interface RecordsTableProps {
  records: RecordCardData[];
  signedIn: boolean;
  /** Asks for confirmation, then deletes. */
  onDelete(records: RecordCardData[]): void;
}

/**
 * The table variant of the Workspace: rows with checkboxes and bulk actions on the checked rows.
 * Delete and Edit only when the user may edit every checked record (Edit with exactly one
 * checked); Match only with exactly two checked.
 */
export function RecordsTable({ records, signedIn, onDelete }: RecordsTableProps) {
  const navigate = useNavigate();
  const [checkedIds, setCheckedIds] = useState<Set<string>>(new Set());
  const [matching, setMatching] = useState<RecordCardData[] | null>(null);
  // Rows that left the list (deleted) are no longer checked.
  const checked = useMemo(() => records.filter((record) => checkedIds.has(record.id)), [records, checkedIds]);
  const canEditAll = checked.length > 0 && checked.every((record) => record.edit);
  const canDeleteAll = canEditAll && checked.every((record) => record.can_delete);
  const allChecked = records.length > 0 && checked.length === records.length;

  function toggle(id: string) {
    setCheckedIds((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <Stack gap="3">
      <HStack gap="2" wrap="wrap" minH="8" role="toolbar" aria-label="Bulk actions">
        <Text fontSize="sm" color="fg.muted" data-testid="checked-count">
          {checked.length} selected
        </Text>
        {signedIn && canDeleteAll && (
          <Button size="sm" colorPalette="red" variant="outline" onClick={() => onDelete(checked)}>
            Delete
          </Button>
        )}
        {signedIn && canEditAll && checked.length === 1 && (
          <Button size="sm" variant="outline" onClick={() => navigate(`/records/edit/${checked[0].id}`)}>
            Edit
          </Button>
        )}
        {checked.length === 2 && (
          <Button size="sm" colorPalette="teal" onClick={() => setMatching(checked)}>
            Match
          </Button>
        )}
      </HStack>
      <TableScrollArea label="Records">
        <HeadedTable
          interactive
          headers={[
            {
              header: (
                <input
                  type="checkbox"
                  aria-label="Select all records"
                  checked={allChecked}
                  onChange={() => setCheckedIds(allChecked ? new Set() : new Set(records.map((record) => record.id)))}
                />
              ),
              w: '8',
            },
            'Name',
            'Owner',
            'Type',
            'Size',
            'Visibility',
            'Changed',
          ]}
        >
          {records.map((record) => {
            const name = displayName(record.name, record.alt_name);
            return (
              <Table.Row key={record.id} data-testid={`record-row-${record.id}`} data-selected={checkedIds.has(record.id) ? '' : undefined}>
                <Table.Cell>
                  <input type="checkbox" aria-label={`Select ${name}`} checked={checkedIds.has(record.id)} onChange={() => toggle(record.id)} />
                </Table.Cell>
                <Table.Cell>
                  <Link asChild colorPalette="teal">
                    <RouterLink to={`/records/${record.id}`} title={name}>
                      {truncate(name, NAME_LIMIT)}
                    </RouterLink>
                  </Link>
                </Table.Cell>
                <Table.Cell>{record.user || 'unknown'}</Table.Cell>
                <Table.Cell>{record.type ? truncate(record.type, TYPE_LIMIT) : 'N/A'}</Table.Cell>
                <Table.Cell>{formatSize(record.size)}</Table.Cell>
                <Table.Cell>{visibilityLabel(record.visibility)}</Table.Cell>
                <Table.Cell>{formatDate(record.date_changed)}</Table.Cell>
              </Table.Row>
            );
          })}
        </HeadedTable>
      </TableScrollArea>
      <CompareDialog records={matching ? [asAreaRecord(matching[0]), asAreaRecord(matching[1])] : null} onClose={() => setMatching(null)} />
    </Stack>
  );
}
