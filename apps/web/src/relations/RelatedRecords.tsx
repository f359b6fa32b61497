import { useQuery } from '@tanstack/react-query';
import { Badge, Heading, HStack, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { LoadingState } from '../components/LoadingState';
import { formatScore } from '../lib/format';
import { relationErrorText, relationsApi } from './relations-api';
import { relationKeys } from '../shared/query-keys';

/** "Joinable with" and the top related records (top_related) of a record, from the relations service. */
export function RelatedRecords({ recordId }: { recordId: string }) {
  const joinable = useQuery({ queryKey: relationKeys.joinableWith(recordId), queryFn: () => relationsApi.joinableWith(recordId), retry: false });
  const related = useQuery({ queryKey: relationKeys.topRelated(recordId), queryFn: () => relationsApi.topRelated(recordId), retry: false });
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
      <Stack as="section" aria-label="Joinable with" gap="2" data-testid="joinable-with">
        <Heading as="h2" size="md">
          Joinable with
        </Heading>
        {joinable.isPending && <LoadingState label="Looking for joinable records…" />}
        {joinable.isError && <Text color="fg.error">{relationErrorText(joinable.error)}</Text>}
        {joinable.data && joinable.data.results.length === 0 && <Text color="fg.muted">No record you may see joins with this one.</Text>}
        {joinable.data?.results.map((r) => (
          <HStack key={r.id} gap="2" wrap="wrap" fontSize="sm">
            <Badge colorPalette="green">{formatScore(r.join_score)}</Badge>
            <Link asChild colorPalette="teal">
              <RouterLink to={`/records/${r.id}`}>{r.name}</RouterLink>
            </Link>
            <Text color="fg.muted">
              on {r.matching_headers.map((m) => (m.header_left === m.header_right ? m.header_left : `${m.header_left} = ${m.header_right}`)).join(', ')}
            </Text>
          </HStack>
        ))}
      </Stack>
      <Stack as="section" aria-label="Related records" gap="2" data-testid="top-related">
        <Heading as="h2" size="md">
          Related records
        </Heading>
        {related.isPending && <LoadingState label="Looking for related records…" />}
        {related.isError && <Text color="fg.error">{relationErrorText(related.error)}</Text>}
        {related.data && related.data.top_related.length === 0 && <Text color="fg.muted">No related records yet.</Text>}
        {related.data?.top_related.map((r) => (
          <Stack key={r.id} gap="0" fontSize="sm">
            <Link asChild colorPalette="teal">
              <RouterLink to={`/records/${r.id}`}>{r.name}</RouterLink>
            </Link>
            <Text color="fg.muted">
              semantic {formatScore(r.sem_score)} · structural {formatScore(r.struct_score)} · statistical {formatScore(r.stats_score)} · link{' '}
              {formatScore(r.link_score)}
            </Text>
          </Stack>
        ))}
      </Stack>
    </SimpleGrid>
  );
}
