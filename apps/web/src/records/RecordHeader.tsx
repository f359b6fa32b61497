import { Badge, DataList, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { formatDate, formatSize } from '../lib/format';
import { labelOf } from './format';
import type { CatalogueRecord } from './types';

/** Name, owner, type, size, dates, visibility and access of a record. */
export function RecordHeader({ record }: { record: CatalogueRecord }) {
  const items: [string, string][] = [
    ['Owner', record.user ?? 'N/A'],
    ['Organisation', record.organisation?.name ?? 'N/A'],
    ['Type', (record.type ?? 'N/A').slice(0, 30)],
    ['Size', formatSize(record.size)],
    ['Created', formatDate(record.date_created)],
    ['Changed', formatDate(record.date_changed)],
    ['Visibility', labelOf(record.visibility_options, record.visibility)],
    ['Access', labelOf(record.access_options, record.access)],
  ];
  if (record.accessFee !== null && record.accessFee !== undefined) items.push(['Access fee', `${record.accessFee} ${record.currency ?? ''}`.trim()]);
  return (
    <Stack gap="3">
      <HStack gap="3" wrap="wrap">
        <Heading as="h1" size="2xl" wordBreak="break-word">
          {record.name}
        </Heading>
        {record.is_owner && <Badge colorPalette="teal">Yours</Badge>}
      </HStack>
      {record.description && <Text color="fg.muted">{record.description}</Text>}
      <DataList.Root orientation="horizontal" size="sm" aria-label="Record summary">
        {items.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue data-testid={`record-${label.toLowerCase().replace(/\s/g, '-')}`}>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
    </Stack>
  );
}
