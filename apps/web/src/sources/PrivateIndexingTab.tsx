import { useEffect, useRef, useState } from 'react';
import { Button, Field, HStack, Input, Progress, Stack, Text } from '@chakra-ui/react';
import { CreatedRecords } from '../components/CreatedRecords';
import { LoadingState } from '../components/LoadingState';
import { StatusAlert } from '../components/StatusAlert';
import { TextField } from '../forms/TextField';
import { toApiError } from '../forms/use-form';
import { useUploadRecords } from '../records/use-upload';
import type { CatalogueRecord } from '../records/types';
import { ColumnSelectionModal } from './ColumnSelectionModal';
import { hashingProblem, KEY_MISSING, LinkageKeyPanel, useLinkageKey } from './LinkageKeyPanel';
import { choicesToFields, type ColumnChoice } from './private-columns';
import { scanCsv, transformCsv } from './private-indexing-client';

const NONE: string[] = [];

interface Scanned {
  file: File;
  headers: string[];
  rows: string[][];
  totalRows: number;
}

/**
 * Add data → Private Indexing (spec section 2): the CSV is read in this browser (a Web Worker), the
 * chosen columns are hashed with the linkage key or masked there, excluded ones are dropped, and
 * only that is uploaded: the server never receives a hashed column's raw values.
 */
export function PrivateIndexingTab() {
  const linkage = useLinkageKey();
  const [scanned, setScanned] = useState<Scanned | null>(null);
  const [reading, setReading] = useState(false);
  const [choices, setChoices] = useState<ColumnChoice[] | null>(null);
  const [modalOpen, setModalOpen] = useState(false);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [progress, setProgress] = useState<{ step: string; fraction: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CatalogueRecord | null>(null);
  const cancel = useRef<(() => void) | null>(null);
  const upload = useUploadRecords();
  useEffect(() => () => cancel.current?.(), []);

  const choose = async (file: File | undefined) => {
    setScanned(null);
    setChoices(null);
    setError(null);
    setCreated(null);
    if (!file) return;
    setReading(true);
    const run = scanCsv(file);
    cancel.current = run.cancel;
    try {
      const result = await run.result;
      if (result.headers.length === 0) throw new Error('empty');
      setScanned({ file, headers: result.headers, rows: result.rows, totalRows: result.totalRows });
      setName(file.name);
      setModalOpen(true);
    } catch (caught) {
      if (!(caught instanceof DOMException)) setError('The file could not be read as CSV.');
    } finally {
      setReading(false);
    }
  };

  const { hashed, fuzzy } = scanned && choices ? choicesToFields(scanned.headers, choices) : { hashed: NONE, fuzzy: NONE };
  const needsKey = hashed.length > 0 && !linkage.key;
  // Index privately without a key: the key field says so and gets the focus.
  const [keyAsked, setKeyAsked] = useState(false);
  const keyPanel = useRef<HTMLDivElement>(null);
  const askForKey = () => {
    setKeyAsked(true);
    requestAnimationFrame(() => {
      const input = keyPanel.current?.querySelector<HTMLInputElement>('input[name="linkageKey"]');
      input?.scrollIntoView({ block: 'center' });
      input?.focus({ preventScroll: true });
    });
  };

  const indexPrivately = async () => {
    if (needsKey) return askForKey();
    if (!scanned || !choices) return;
    setError(null);
    setProgress({ step: 'Hashing in this browser…', fraction: 0 });
    try {
      const run = transformCsv(scanned.file, choices, linkage.key, (fraction) => setProgress({ step: 'Hashing in this browser…', fraction }));
      cancel.current = run.cancel;
      const { blob } = await run.result;
      const fields = choicesToFields(scanned.headers, choices);
      const form = new FormData();
      form.append('extractOption', 'metadata');
      form.append('allowDuplicate', 'true');
      form.append('saveSeparately', 'true');
      if (name.trim()) form.append('name', name.trim());
      if (description.trim()) form.append('description', description.trim());
      // Excluded columns are not in the file at all; masked ones hold masks; hashed ones hashes.
      const masked = fields.formatList.filter((f) => f.format === 'mask');
      if (masked.length) form.append('formatList', JSON.stringify(masked));
      if (fields.hashed.length && linkage.id) {
        form.append('hashedList', JSON.stringify(fields.hashed));
        if (fields.fuzzy.length) form.append('fuzzyList', JSON.stringify(fields.fuzzy));
        form.append('linkageKeyId', linkage.id);
      }
      // Last: the server reads the choices sent before a file as the file arrives.
      form.append('file', blob, scanned.file.name.replace(/\.[^.]*$/, '') + '.csv');
      setProgress({ step: 'Uploading…', fraction: 0 });
      const [record] = await upload.mutateAsync({ body: form, onProgress: (fraction) => setProgress({ step: 'Uploading…', fraction }) });
      setCreated(record);
      setScanned(null);
      setChoices(null);
    } catch (caught) {
      if (caught instanceof DOMException && caught.name === 'AbortError') return;
      setError(
        caught instanceof Error && !('status' in caught) ? caught.message : toApiError(caught).message || 'File could not be saved. Please contact support.',
      );
    } finally {
      setProgress(null);
      cancel.current = null;
    }
  };

  return (
    <Stack gap="6" maxW="3xl">
      <Text color="fg.muted">
        Index a CSV without sending its private values: it is read in this browser; hashed columns leave it only as keyed hashes, masked ones only as masks, and
        excluded ones not at all.
      </Text>
      <div ref={keyPanel}>
        <LinkageKeyPanel state={linkage} required={keyAsked && needsKey} />
      </div>
      <Field.Root>
        <Field.Label>CSV file</Field.Label>
        <Input
          type="file"
          accept=".csv,.tsv,text/csv"
          p="1"
          aria-label="CSV file"
          disabled={reading || progress !== null}
          onChange={(event) => void choose(event.currentTarget.files?.[0])}
        />
      </Field.Root>
      {reading && <LoadingState label="Reading the file in this browser…" />}

      {scanned && choices && (
        <Stack gap="4" data-testid="private-summary">
          <Text>
            {scanned.file.name}: {scanned.headers.length} columns, {scanned.totalRows.toLocaleString('en')} rows.{' '}
            {hashed.length ? `Hashed: ${hashed.map((h) => (fuzzy.includes(h) ? `${h} (fuzzy)` : h)).join(', ')}.` : 'No column is hashed.'}
          </Text>
          <HStack>
            <Button variant="outline" size="sm" onClick={() => setModalOpen(true)}>
              Choose columns
            </Button>
          </HStack>
          <TextField label="Record name" name="recordName" value={name} onChange={setName} />
          <TextField label="Description" name="recordDescription" multiline value={description} onChange={setDescription} />
          <HStack wrap="wrap">
            <Button
              colorPalette="teal"
              onClick={() => void indexPrivately()}
              loading={progress !== null}
              loadingText="Indexing…"
              aria-describedby={needsKey ? 'private-needs-key' : undefined}
            >
              Index privately
            </Button>
            {progress && (
              <Button variant="outline" onClick={() => cancel.current?.()}>
                Cancel
              </Button>
            )}
            {needsKey && (
              <Text id="private-needs-key" color="fg.error" fontSize="sm" role={keyAsked ? 'alert' : undefined}>
                {KEY_MISSING}
              </Text>
            )}
          </HStack>
        </Stack>
      )}
      {progress && (
        <Progress.Root value={Math.round(progress.fraction * 100)} colorPalette="teal" aria-label={progress.step} data-testid="private-progress">
          <HStack gap="3">
            <Progress.Label>{progress.step}</Progress.Label>
            <Progress.Track flex="1">
              <Progress.Range />
            </Progress.Track>
            <Progress.ValueText>{Math.round(progress.fraction * 100)}%</Progress.ValueText>
          </HStack>
        </Progress.Root>
      )}
      {error && <StatusAlert status="error" text={error} />}
      <CreatedRecords records={created ? [created] : []} />

      {scanned && (
        <ColumnSelectionModal
          open={modalOpen}
          title={`Columns of ${scanned.file.name}`}
          headers={scanned.headers}
          rows={scanned.rows}
          totalRows={scanned.totalRows}
          variant="save"
          initial={choices ?? undefined}
          validate={(next) => hashingProblem(linkage, next)}
          onClose={() => {
            setModalOpen(false);
            setChoices((current) => current ?? scanned.headers.map(() => ({ hash: false, format: 'plain' as const })));
          }}
          onSubmit={(next) => {
            setChoices(next);
            setModalOpen(false);
          }}
        >
          {(next, showErrors) => (next.some((c) => c.hash) ? <LinkageKeyPanel state={linkage} required={showErrors} /> : null)}
        </ColumnSelectionModal>
      )}
    </Stack>
  );
}
