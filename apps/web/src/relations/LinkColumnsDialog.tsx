import { useRef, useState } from 'react';
import { useStartLink } from '../jobs/use-merge';
import { useWorkArea } from './work-area';
import { relationKeys } from '../shared/query-keys';
import { useSharedState } from '../shared/use-shared-state';
import { Button, Field, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { ModalFrame, ModalSections } from '../components/ModalDialog';
import type { ColumnPair } from '../jobs/jobs-api';

/** What the user links two records on: names of the left record's hashed columns, the right's, and how they were paired. */
export interface LinkColumnsRequest {
  left: { id: string; name: string; columns: string[] };
  right: { id: string; name: string; columns: string[] };
}

export const CHOOSE_A_PAIR = 'Pair at least one column of each record to link them.';
const NOT_LINKED = '';

/** Column names as a person reads them: case, spaces, dashes and underscores aside ("country_code" is "Country Code"). */
const loose = (header: string) => header.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The first pairing offered: each left column with the right column of the same name read loosely, if any. */
export function suggestedPairs(left: string[], right: string[]): Record<string, string> {
  const taken = new Set<string>();
  const pairs: Record<string, string> = {};
  for (const header of left) {
    const match = right.find((other) => !taken.has(other) && loose(other) === loose(header));
    pairs[header] = match ?? NOT_LINKED;
    if (match) taken.add(match);
  }
  return pairs;
}

/**
 * Link Datasets when the two records name their hashed columns differently: the user pairs each
 * hashed column of the first record with one of the second (country_code with Country Code), the
 * pairs offered by their names, then starts the link job on those pairs.
 */
export function LinkColumnsDialog({
  request,
  starting,
  onStart,
  onClose,
}: {
  request: LinkColumnsRequest | null;
  starting: boolean;
  onStart(pairs: ColumnPair[]): void;
  onClose(): void;
}) {
  return (
    <ModalFrame open={!!request} onClose={onClose} size="lg" testId="link-columns">
      {request && <Pairing request={request} starting={starting} onStart={onStart} onClose={onClose} />}
    </ModalFrame>
  );
}

function Pairing({
  request,
  starting,
  onStart,
  onClose,
}: {
  request: LinkColumnsRequest;
  starting: boolean;
  onStart(pairs: ColumnPair[]): void;
  onClose(): void;
}) {
  const { left, right } = request;
  const [pairs, setPairs] = useState(() => suggestedPairs(left.columns, right.columns));
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLSelectElement>(null);
  const chosen = left.columns.filter((h) => pairs[h]).map((h) => ({ header_left: h, header_right: pairs[h] }));
  function start() {
    if (chosen.length === 0) {
      setError(CHOOSE_A_PAIR);
      first.current?.focus();
      return;
    }
    onStart(chosen);
  }
  return (
    <ModalSections
      title="Link Datasets: pair the columns"
      onClose={onClose}
      closeLabel="Close the column pairing"
      before={
        <Stack gap="1" align="end">
          <Button colorPalette="purple" loading={starting} onClick={start}>
            Link on these columns
          </Button>
          {error && (
            <Text role="alert" fontSize="sm" color="fg.error">
              {error}
            </Text>
          )}
        </Stack>
      }
    >
      <Stack gap="4">
        <Text fontSize="sm">
          {left.name} and {right.name} have no hashed columns with the same name. Choose which column of {right.name} holds the same values as each hashed
          column of {left.name}. Rows are linked where the paired columns agree.
        </Text>
        {left.columns.map((header, index) => (
          <Field.Root key={header}>
            <Field.Label>
              {header} ({left.name}) pairs with
            </Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                ref={index === 0 ? first : undefined}
                value={pairs[header] ?? NOT_LINKED}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setPairs((old) => ({ ...old, [header]: value }));
                  setError(null);
                }}
              >
                <option value={NOT_LINKED}>Not used for linking</option>
                {right.columns.map((other) => (
                  <option key={other} value={other}>
                    {other} ({right.name})
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        ))}
      </Stack>
    </ModalSections>
  );
}

/**
 * Link Datasets for two records of the work area: starts the link job, and when the records name no
 * hashed column alike, opens the column pairing (the dialog to render) instead of failing.
 */
export function useLinkDatasets() {
  const area = useWorkArea();
  // Shared state: the dialog stays open when a resized window moves the work area that opened it.
  const [request, setRequestState] = useSharedState<LinkColumnsRequest | null>(relationKeys.linkColumnsRequest, null);
  const setRequest = (next: LinkColumnsRequest | null) => setRequestState(() => next);
  const side = (id: string) => {
    const record = area.records.find((r) => r.id === id);
    return { id, name: record?.name ?? id, columns: record?.enc_headers ?? [] };
  };
  const link = useStartLink(({ left, right }) => setRequest({ left: side(left), right: side(right) }));
  const dialog = (
    <LinkColumnsDialog
      request={request}
      starting={link.isPending}
      onStart={(pairs) => request && link.mutate({ left: request.left.id, right: request.right.id, pairs }, { onSuccess: () => setRequest(null) })}
      onClose={() => setRequest(null)}
    />
  );
  return { link, dialog };
}
