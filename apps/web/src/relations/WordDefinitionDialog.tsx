import { useQuery } from '@tanstack/react-query';
import { Badge, Link, Stack, Text } from '@chakra-ui/react';
import { LoadingState } from '../components/LoadingState';
import { ModalDialog } from '../components/ModalDialog';
import { DEFINITION_FAILED, relationsApi } from './relations-api';
import { relationKeys } from '../shared/query-keys';

/** The Word Set's word information modal: the word's WordNet senses, and encyclopedia search links. */
export function WordDefinitionDialog({ word, onClose }: { word: string | null; onClose(): void }) {
  const query = useQuery({
    queryKey: relationKeys.definition(word),
    queryFn: () => relationsApi.definition(word ?? ''),
    enabled: !!word,
    retry: false,
    staleTime: Infinity,
  });
  return (
    <ModalDialog open={!!word} onClose={onClose} testId="word-definition" title={word}>
      {query.isPending && <LoadingState label="Looking the word up…" />}
      {query.isError && (
        <Text color="fg.error" role="alert">
          {DEFINITION_FAILED}
        </Text>
      )}
      {query.data && (
        <Stack as="ol" gap="3" ps="4" listStyleType="decimal">
          {query.data.senses.slice(0, 10).map((sense) => (
            <li key={`${sense.pos}-${sense.synset}`}>
              <Stack gap="1">
                <Text>
                  <Badge size="sm" me="2">
                    {sense.pos}
                  </Badge>
                  {sense.definition}
                </Text>
                {sense.lemmas.length > 1 && (
                  <Text fontSize="sm" color="fg.muted">
                    Synonyms: {sense.lemmas.filter((l) => l.toLowerCase() !== word?.toLowerCase()).join(', ')}
                  </Text>
                )}
                {sense.hypernyms.length > 0 && (
                  <Text fontSize="sm" color="fg.muted">
                    Broader: {sense.hypernyms.join(', ')}
                  </Text>
                )}
                {sense.examples.map((example) => (
                  <Text key={example} fontSize="sm" fontStyle="italic">
                    “{example}”
                  </Text>
                ))}
              </Stack>
            </li>
          ))}
        </Stack>
      )}
      {word && (
        <Text fontSize="sm" mt="4">
          Search the encyclopedia:{' '}
          <Link colorPalette="teal" href={`https://en.wikipedia.org/w/index.php?search=${encodeURIComponent(word)}`} target="_blank" rel="noreferrer">
            {word}
          </Link>
        </Text>
      )}
    </ModalDialog>
  );
}
