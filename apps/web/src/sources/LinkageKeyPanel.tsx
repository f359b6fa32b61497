import { useMemo, useState } from 'react';
import { Box, Button, Checkbox, Code, HStack, Stack, Text } from '@chakra-ui/react';
import { TextField } from '../forms/TextField';
import type { ColumnChoice } from './private-columns';
import { generateLinkageKey, linkageKeyId, parseLinkageKey, storedLinkageKey, storeLinkageKey } from './linkage-key';

/** The linkage key of this page: remembered in this browser only when the user asks. */
export function useLinkageKey() {
  const [key, setKey] = useState<string>(() => storedLinkageKey() ?? '');
  const [remember, setRemember] = useState<boolean>(() => storedLinkageKey() !== null);
  const bytes = useMemo(() => parseLinkageKey(key), [key]);
  const update = (next: string, keep = remember) => {
    setKey(next);
    storeLinkageKey(keep && parseLinkageKey(next) ? next.trim() : null);
  };
  return {
    key: bytes ? key.trim() : null,
    text: key,
    id: bytes ? linkageKeyId(bytes) : null,
    remember,
    setText: (next: string) => update(next),
    setRemember: (value: boolean) => {
      setRemember(value);
      update(key, value);
    },
    generate: () => update(generateLinkageKey()),
  };
}

export type LinkageKeyState = ReturnType<typeof useLinkageKey>;

export const KEY_MISSING = 'Give your linkage key to hash columns.';
export const KEY_INVALID = 'A linkage key is 43 characters (32 bytes in base64url).';

/** What is wrong with the key: not a key, or none where one is needed (null: nothing). */
export function linkageKeyProblem(state: LinkageKeyState, needed: boolean): string | null {
  if (state.text.trim() !== '' && !state.key) return KEY_INVALID;
  return needed && !state.key ? KEY_MISSING : null;
}

/** Why hashing these choices cannot start (shown beside the button), or null. */
export function hashingProblem(state: LinkageKeyState, choices: ColumnChoice[]): string | null {
  if (!choices.some((c) => c.hash && c.format !== 'exclude')) return null;
  if (state.key) return null;
  return state.text.trim() === '' ? KEY_MISSING : 'The linkage key is not valid: a linkage key is 43 characters (32 bytes in base64url).';
}

/**
 * Hashed columns are keyed with the organisation's linkage key (docs/private-linkage.md): paste the
 * key your organisation shares with its partners, or make one. The key is used for hashing here;
 * it is not stored by the product.
 */
export function LinkageKeyPanel({ state, required = false }: { state: LinkageKeyState; required?: boolean }) {
  const error = linkageKeyProblem(state, required);
  return (
    <Box borderWidth="1px" borderRadius="md" p="4" data-testid="linkage-key">
      <Stack gap="3">
        <Text fontWeight="semibold">Linkage key</Text>
        <Text fontSize="sm" color="fg.muted">
          Hashed columns are keyed with your organisation's linkage key, so they link with data your partners hash under the same key. Keep it secret; the
          product does not store it.
        </Text>
        <TextField
          label="Linkage key"
          name="linkageKey"
          type="password"
          autoComplete="off"
          value={state.text}
          onChange={state.setText}
          required={required}
          error={error ?? undefined}
        />
        <HStack gap="4" wrap="wrap">
          <Button size="sm" variant="outline" onClick={state.generate}>
            Generate a new key
          </Button>
          <Checkbox.Root size="sm" colorPalette="teal" checked={state.remember} onCheckedChange={(details) => state.setRemember(details.checked === true)}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Remember in this browser</Checkbox.Label>
          </Checkbox.Root>
          {state.id && (
            <Text fontSize="sm">
              Key id <Code data-testid="linkage-key-id">{state.id}</Code>
            </Text>
          )}
        </HStack>
      </Stack>
    </Box>
  );
}
