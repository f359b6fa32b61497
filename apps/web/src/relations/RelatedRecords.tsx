import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Badge, Heading, HStack, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { LoadingState } from '../components/LoadingState';
import { formatScore } from '../lib/format';
import { relationErrorText, relationsApi } from './relations-api';
import { relationKeys } from '../shared/query-keys';

/** One list of records related to a record: loading, the error, an empty note, or the items. */
function RelatedList<T>({
  title,
  testId,
  loadingLabel,
  emptyText,
  query,
  children,
}: {
  title: string;
  testId: string;
  loadingLabel: string;
  emptyText: string;
  query: { isPending: boolean; isError: boolean; error: unknown; data: T[] | undefined };
  children(item: T): ReactNode;
}) {
  return (
    <Stack as="section" aria-label={title} gap="2" data-testid={testId}>
      <Heading as="h2" size="md">
        {title}
      </Heading>
      {query.isPending && <LoadingState label={loadingLabel} />}
      {query.isError && <Text color="fg.error">{relationErrorText(query.error)}</Text>}
      {query.data && query.data.length === 0 && <Text color="fg.muted">{emptyText}</Text>}
      {query.data?.map(children)}
    </Stack>
  );
}

/** "Joinable with" and the top related records (top_related) of a record, from the relations service. */
export function RelatedRecords({ recordId }: { recordId: string }) {
  const joinable = useQuery({
    queryKey: relationKeys.joinableWith(recordId),
    queryFn: () => relationsApi.joinableWith(recordId),
    retry: false,
    select: (answer) => answer.results,
  });
  const related = useQuery({
    queryKey: relationKeys.topRelated(recordId),
    queryFn: () => relationsApi.topRelated(recordId),
    retry: false,
    select: (answer) => answer.top_related,
  });
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
      <RelatedList
        title="Joinable with"
        testId="joinable-with"
        loadingLabel="Looking for joinable records…"
        emptyText="No record you may see joins with this one."
        query={joinable}
      >
        {(r) => (
          <HStack key={r.id} gap="2" wrap="wrap" fontSize="sm">
            <Badge colorPalette="green">{formatScore(r.join_score)}</Badge>
            <Link asChild colorPalette="teal">
              <RouterLink to={`/records/${r.id}`}>{r.name}</RouterLink>
            </Link>
            <Text color="fg.muted">
              on {r.matching_headers.map((m) => (m.header_left === m.header_right ? m.header_left : `${m.header_left} = ${m.header_right}`)).join(', ')}
            </Text>
          </HStack>
        )}
      </RelatedList>
      <RelatedList title="Related records" testId="top-related" loadingLabel="Looking for related records…" emptyText="No related records yet." query={related}>
        {(r) => (
          <Stack key={r.id} gap="0" fontSize="sm">
            <Link asChild colorPalette="teal">
              <RouterLink to={`/records/${r.id}`}>{r.name}</RouterLink>
            </Link>
            <Text color="fg.muted">
              semantic {formatScore(r.sem_score)} · structural {formatScore(r.struct_score)} · statistical {formatScore(r.stats_score)} · link{' '}
              {formatScore(r.link_score)}
            </Text>
          </Stack>
        )}
      </RelatedList>
    </SimpleGrid>
  );
}
