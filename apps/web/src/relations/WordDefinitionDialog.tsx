import { useQuery } from '@tanstack/react-query';
import { Badge, Button, CloseButton, Dialog, Link, Portal, Stack, Text } from '@chakra-ui/react';
import { LoadingState } from '../components/LoadingState';
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
    <Dialog.Root open={!!word} onOpenChange={(details) => !details.open && onClose()} scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="word-definition">
            <Dialog.Header>
              <Dialog.Title>{word}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
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
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                Close
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
