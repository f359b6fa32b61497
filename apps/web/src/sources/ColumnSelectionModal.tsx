import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Box, Button, Checkbox, CloseButton, Dialog, NativeSelect, Stack, Table, Text, VisuallyHidden } from '@chakra-ui/react';
import { type ColumnChoice, plainChoices } from './private-columns';
import { TableScrollArea } from '../components/TableScrollArea';
import { ModalFrame } from '../components/ModalDialog';

interface ColumnSelectionModalProps {
  open: boolean;
  title: string;
  headers: string[];
  rows: Array<Array<string | null>>;
  totalRows: number;
  /** 'save': Close and Save; 'create': Close and Create Metadata Record (spec section 2, two variants). */
  variant: 'save' | 'create';
  initial?: ColumnChoice[];
  busy?: boolean;
  /** The last submit's failure (from the server), shown beside the button. */
  error?: string | null;
  /** What stops these choices from being submitted (e.g. no linkage key for a hashed column), or null. */
  validate?(choices: ColumnChoice[]): string | null;
  onClose(): void;
  onSubmit(choices: ColumnChoice[]): void;
  /** Shown under the table, e.g. the linkage key when a column is hashed; showErrors once a submit was refused. */
  children?: (choices: ColumnChoice[], showErrors: boolean) => ReactNode;
}

const FORMATS: Array<[string, ColumnChoice['format']]> = [
  ['Plain', 'plain'],
  ['Mask', 'mask'],
  ['Exclude', 'exclude'],
];

const cut = (value: string | null) => (value === null ? '' : value.length > 20 ? `${value.slice(0, 20)}…` : value);

/** Per column a Hash checkbox and Exclude / Mask / Plain, over sample rows with the total row count. */
export function ColumnSelectionModal({
  open,
  title,
  headers,
  rows,
  totalRows,
  variant,
  initial,
  busy,
  error,
  validate,
  onClose,
  onSubmit,
  children,
}: ColumnSelectionModalProps) {
  const [choices, setChoices] = useState<ColumnChoice[]>(initial ?? plainChoices(headers.length));
  useEffect(() => setChoices(initial ?? plainChoices(headers.length)), [headers, initial]);
  const set = (index: number, change: Partial<ColumnChoice>) => setChoices((current) => current.map((c, i) => (i === index ? { ...c, ...change } : c)));
  // A refused submit: its reason stays beside the button (and follows the fields) until it is fixed.
  const [refusals, setRefusals] = useState(0);
  const problem = refusals > 0 ? (validate?.(choices) ?? null) : null;
  const footerMessage = problem ?? error ?? null;
  const messageId = useId();
  const body = useRef<HTMLDivElement>(null);
  // After a refused submit the first invalid field gets the focus, scrolled into view inside the dialog.
  useEffect(() => {
    if (refusals === 0) return;
    const frame = requestAnimationFrame(() => {
      const field = body.current?.querySelector<HTMLElement>('input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"]');
      field?.scrollIntoView({ block: 'center' });
      field?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [refusals]);
  const submit = () => {
    if (validate?.(choices)) {
      setRefusals((n) => n + 1);
      return;
    }
    setRefusals(0);
    onSubmit(choices);
  };

  return (
    <ModalFrame open={open} onClose={onClose} placement="center" size="xl" testId="column-selection">
      <Dialog.Header>
        <Dialog.Title>{title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4" ref={body}>
          <Text fontSize="sm" color="fg.muted">
            For each column: Hash replaces its values by keyed hashes (linkable, not readable), and Fuzzy hashes a text column so that values with a typo still
            link (&ldquo;Jon Smith&rdquo; with &ldquo;John Smith&rdquo;); Mask shows only the shape of its values; Exclude leaves it out.
          </Text>
          <TableScrollArea label="Columns and sample rows" maxW="100%">
            <Table.Root size="sm" aria-label="Columns and sample rows">
              <Table.Header>
                <Table.Row>
                  {headers.map((header, i) => (
                    <Table.ColumnHeader key={i} minW="36" verticalAlign="top">
                      <Stack gap="2">
                        <Text fontWeight="semibold">{header}</Text>
                        <Checkbox.Root
                          size="sm"
                          colorPalette="teal"
                          checked={choices[i]?.hash ?? false}
                          disabled={choices[i]?.format === 'exclude'}
                          onCheckedChange={(details) => set(i, details.checked === true ? { hash: true } : { hash: false, fuzzy: false })}
                        >
                          <Checkbox.HiddenInput />
                          <Checkbox.Control />
                          <Checkbox.Label>
                            Hash<VisuallyHidden> {header}</VisuallyHidden>
                          </Checkbox.Label>
                        </Checkbox.Root>
                        <Checkbox.Root
                          size="sm"
                          colorPalette="teal"
                          checked={choices[i]?.fuzzy ?? false}
                          disabled={!choices[i]?.hash}
                          onCheckedChange={(details) => set(i, { fuzzy: details.checked === true })}
                        >
                          <Checkbox.HiddenInput />
                          <Checkbox.Control />
                          <Checkbox.Label>
                            Fuzzy<VisuallyHidden> {header}</VisuallyHidden>
                          </Checkbox.Label>
                        </Checkbox.Root>
                        <NativeSelect.Root size="xs">
                          <NativeSelect.Field
                            aria-label={`Share format of ${header}`}
                            value={choices[i]?.format ?? 'plain'}
                            onChange={(event) => {
                              const format = FORMATS.find(([, code]) => code === event.currentTarget.value)?.[1] ?? 'plain';
                              set(i, format === 'exclude' ? { format, hash: false, fuzzy: false } : { format });
                            }}
                          >
                            {FORMATS.map(([label, value]) => (
                              <option key={value} value={value}>
                                {label}
                              </option>
                            ))}
                          </NativeSelect.Field>
                          <NativeSelect.Indicator />
                        </NativeSelect.Root>
                      </Stack>
                    </Table.ColumnHeader>
                  ))}
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((row, r) => (
                  <Table.Row key={r}>
                    {headers.map((_, c) => (
                      <Table.Cell key={c} color={choices[c]?.format === 'exclude' ? 'fg.subtle' : undefined}>
                        {cut(row[c] ?? null)}
                      </Table.Cell>
                    ))}
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </TableScrollArea>
          <Text fontSize="sm" data-testid="total-rows">
            Total rows: {totalRows.toLocaleString('en')}
          </Text>
          {children?.(choices, refusals > 0)}
        </Stack>
      </Dialog.Body>
      {/* The reason a submit was refused sits beside its button; on a phone, on its own line above the buttons. */}
      <Dialog.Footer flexWrap="wrap" rowGap="2">
        <Box flex="1" minW={{ base: 'full', sm: '0' }}>
          {footerMessage && (
            <Text id={messageId} role="alert" color="fg.error" fontSize="sm" data-testid="column-selection-error">
              {footerMessage}
            </Text>
          )}
        </Box>
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button colorPalette="teal" loading={busy} onClick={submit} aria-describedby={footerMessage ? messageId : undefined}>
          {variant === 'save' ? 'Save' : 'Create Metadata Record'}
        </Button>
      </Dialog.Footer>
      <Dialog.CloseTrigger asChild>
        <CloseButton size="sm" aria-label="Close dialog" />
      </Dialog.CloseTrigger>
    </ModalFrame>
  );
}
