import { Alert, Box } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';

/** The success alert of an indexing: the records it created, each a link to its details. */
export function CreatedRecords({ records, title = 'The record was created.' }: { records: ReadonlyArray<{ id: string; name: string }>; title?: string }) {
  if (records.length === 0) return null;
  return (
    <Alert.Root status="success" role="status">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Box as="ul" ps="4" data-testid="created-records">
          {records.map((record) => (
            <li key={record.id}>
              <RouterLink to={`/records/${record.id}`} style={{ textDecoration: 'underline' }}>
                {record.name}
              </RouterLink>
            </li>
          ))}
        </Box>
      </Alert.Content>
    </Alert.Root>
  );
}
