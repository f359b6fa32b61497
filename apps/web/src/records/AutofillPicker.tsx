import { useEffect, useId, useState } from 'react';
import { Button, Field, HStack, Input, Stack, Tag, Wrap } from '@chakra-ui/react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { NamedId } from './types';
import { recordKeys } from '../shared/query-keys';

interface AutofillPickerProps {
  label: string;
  /** Looks names up by lowercase substring (spec section 5: needs non-empty input). */
  search(q: string, signal?: AbortSignal): Promise<NamedId[]>;
  selected: NamedId[];
  onChange(selected: NamedId[]): void;
}

/** Picks organisations or users from an autofill list; Add stays disabled until the text names one of them. */
export function AutofillPicker({ label, search, selected, onChange }: AutofillPickerProps) {
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  const listId = useId();
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const results = useQuery({
    queryKey: recordKeys.autofill(label, debounced.toLowerCase()),
    queryFn: ({ signal }) => search(debounced, signal),
    enabled: debounced.length > 0,
    staleTime: 30_000,
    // The names found so far stay while the next text's load: else Add, enabled by a whole name
    // from the list, turned disabled for a moment as that very name was looked up, and a click
    // then did nothing.
    placeholderData: keepPreviousData,
  });
  const choice = results.data?.find((entry) => entry.name === text.trim() && !selected.some((s) => s.id === entry.id));

  const add = () => {
    if (!choice) return;
    onChange([...selected, choice]);
    setText('');
  };
  return (
    <Stack gap="2">
      <Field.Root>
        <Field.Label>{label}</Field.Label>
        <HStack gap="2" w="full">
          <Input
            list={listId}
            value={text}
            placeholder="Start typing a name"
            autoComplete="off"
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
          />
          <Button variant="outline" onClick={add} disabled={!choice} aria-label={`Add ${label.toLowerCase()}`}>
            Add
          </Button>
        </HStack>
        <datalist id={listId}>
          {(results.data ?? []).map((entry) => (
            <option key={entry.id} value={entry.name} />
          ))}
        </datalist>
      </Field.Root>
      {selected.length > 0 && (
        <Wrap gap="2" aria-label={`Chosen ${label.toLowerCase()}`}>
          {selected.map((entry) => (
            <Tag.Root key={entry.id} colorPalette="teal">
              <Tag.Label>{entry.name}</Tag.Label>
              <Tag.EndElement>
                <Tag.CloseTrigger aria-label={`Remove ${entry.name}`} onClick={() => onChange(selected.filter((s) => s.id !== entry.id))} />
              </Tag.EndElement>
            </Tag.Root>
          ))}
        </Wrap>
      )}
    </Stack>
  );
}
