import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Field, HStack, Input, List, Progress, Stack, Table, Text } from '@chakra-ui/react';
import { CheckboxField } from '../components/CheckboxField';
import { CreatedRecords } from '../components/CreatedRecords';
import { SelectField } from '../components/SelectField';
import { StatusAlert } from '../components/StatusAlert';
import type { ApiError } from '../api/client';
import { toApiError } from '../forms/use-form';
import { TextField } from '../forms/TextField';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { CustomFieldsEditor } from './CustomFieldsEditor';
import { isCsv, previewCsv, type CsvPreview } from './csv-preview';
import { formatSize } from '../lib/format';
import { indexFormData, type UploadChoices, UploadTimeoutError } from './records-api';
import { useUploadRecords } from './use-upload';
import type { CatalogueRecord, IndexForm } from './types';
import { TableScrollArea } from '../components/TableScrollArea';
import { useAuth } from '../auth/AuthProvider';
import { PerFileFields, UploadTermsFields } from './UploadChoicesFields';

export const RECORD_NOT_SAVED = 'Record could not be saved. Please contact support.';
export const FILE_NOT_SAVED = 'File could not be saved. Please contact support.';

const EXTRACT_OPTIONS: Array<[string, IndexForm['extractOption']]> = [
  ['Metadata (keywords, headers, statistics, samples)', 'metadata'],
  ['Minimal (name, date, content type, size)', 'minimal'],
  ['Samples (metadata plus real row samples)', 'samples'],
];

const extractOptionOf = (value: string) => EXTRACT_OPTIONS.find(([, code]) => code === value)?.[1] ?? 'metadata';

const INITIAL: IndexForm = {
  allowDuplicate: false,
  deleteFile: false,
  extractOption: 'metadata',
  recordName: '',
  recordSource: '',
  extractFromURL: false,
  recordDescription: '',
  recordProvenance: '',
  recordFields: [],
};

/** Server field names to the form's. */
const FIELD_OF: Record<string, keyof IndexForm | 'visibility' | 'access'> = {
  name: 'recordName',
  source: 'recordSource',
  description: 'recordDescription',
  provenance: 'recordProvenance',
  recordFields: 'recordFields',
  extractOption: 'extractOption',
  visibility: 'visibility',
  access: 'access',
};

/** Today's defaults (spec section 3): Private (Everyone on the BASIC plan, where it is the only choice), on request. */
const initialChoices = (basic: boolean): UploadChoices => ({ visibility: basic ? 'EV' : 'PR', access: 'RE', perFile: [] });

function PreviewTable({ preview }: { preview: CsvPreview }) {
  const [header, ...rows] = preview.rows;
  const delimiterName = { ',': 'comma', ';': 'semicolon', '\t': 'tab' }[preview.delimiter];
  return (
    <Stack gap="2" data-testid="csv-preview">
      <Text fontSize="sm" color="fg.muted">
        Preview of the first lines (delimiter: <span data-testid="csv-preview-delimiter">{delimiterName}</span>)
      </Text>
      <TableScrollArea label="File preview" maxW="100%">
        <Table.Root size="sm" aria-label="File preview">
          <Table.Header>
            <Table.Row>
              {header?.map((cell, i) => (
                <Table.ColumnHeader key={i}>{cell}</Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row, r) => (
              <Table.Row key={r}>
                {row.map((cell, c) => (
                  <Table.Cell key={c}>{cell.length > 20 ? `${cell.slice(0, 20)}…` : cell}</Table.Cell>
                ))}
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </TableScrollArea>
    </Stack>
  );
}

/** Add data → Index Files: pick files, describe them, upload with progress (spec section 2). */
export function IndexFilesTab() {
  const [files, setFiles] = useState<File[]>([]);
  const [form, setForm] = useState<IndexForm>(INITIAL);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [previewFailed, setPreviewFailed] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<CatalogueRecord[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const upload = useUploadRecords();
  const basic = useAuth().clientType === 'BASIC';
  const [choices, setChoices] = useState<UploadChoices>(() => initialChoices(basic));
  // Two files or more: each gets its own name and description instead of the shared ones.
  const perFile = files.length > 1;
  const uploading = progress !== null;

  // A preview only for exactly one CSV file (spec section 5).
  const previewable = files.length === 1 && isCsv(files[0]) ? files[0] : null;
  useEffect(() => {
    setPreview(null);
    setPreviewFailed(false);
    if (!previewable) return;
    let current = true;
    previewCsv(previewable).then(
      (result) => current && setPreview(result),
      () => current && setPreviewFailed(true),
    );
    return () => {
      current = false;
    };
  }, [previewable]);

  useEffect(() => () => abort.current?.abort(), []);

  const set = <K extends keyof IndexForm>(key: K, value: IndexForm[K]) => setForm((current) => ({ ...current, [key]: value }));
  const fieldError = (key: keyof IndexForm | 'visibility' | 'access') => {
    if (!error) return undefined;
    const entry = Object.entries(FIELD_OF).find(([, field]) => field === key);
    return entry ? error.fieldError(entry[0]) : undefined;
  };
  // extractFromURL fetches the file at the source URL, whose name then names the record.
  const nameMissing = files.length === 0 && !form.extractFromURL && !form.recordName.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (uploading) return;
    setError(null);
    setFailure(null);
    setCreated([]);
    if (nameMissing) {
      setFailure('A name is required when no file is chosen.');
      return;
    }
    abort.current = new AbortController();
    setProgress(0);
    try {
      const sent = perFile ? { ...form, recordName: '', recordDescription: '' } : form;
      const body = indexFormData(files, sent, { ...choices, visibility: basic ? 'EV' : choices.visibility });
      const records = await upload.mutateAsync({ body, onProgress: setProgress, signal: abort.current.signal });
      setCreated(records);
      setFiles([]);
      setForm(INITIAL);
      // Back to the defaults, so the next upload is not made visible to everyone by a leftover choice.
      setChoices(initialChoices(basic));
      if (fileInput.current) fileInput.current.value = '';
    } catch (caught) {
      if (caught instanceof DOMException && caught.name === 'AbortError') return;
      if (caught instanceof UploadTimeoutError) {
        setFailure(caught.message);
        return;
      }
      const apiError = toApiError(caught);
      const hasFieldErrors = Object.keys(apiError.fieldErrors).length > 0 || apiError.nonFieldErrors.length > 0;
      if (hasFieldErrors || apiError.status === 413) setError(apiError);
      else setFailure(files.length > 0 ? FILE_NOT_SAVED : RECORD_NOT_SAVED);
    } finally {
      setProgress(null);
      abort.current = null;
    }
  };

  return (
    <form noValidate onSubmit={submit} aria-label="Index Files">
      <Stack gap="5" maxW="3xl">
        <Field.Root>
          <Field.Label>Files</Field.Label>
          <Input
            ref={fileInput}
            type="file"
            name="file"
            multiple
            p="1"
            disabled={uploading}
            onChange={(event) => {
              setFiles(Array.from(event.currentTarget.files ?? []));
              setChoices((current) => ({ ...current, perFile: [] }));
              setCreated([]);
            }}
          />
          <Field.HelperText>One record is created per file. Without a file, a metadata-only record needs a name.</Field.HelperText>
        </Field.Root>
        {files.length > 0 && (
          <List.Root ps="5" fontSize="sm" aria-label="Chosen files">
            {files.map((file) => (
              <List.Item key={file.name}>
                {file.name.length > 70 ? `${file.name.slice(0, 70)}…` : file.name} ({formatSize(file.size)})
              </List.Item>
            ))}
          </List.Root>
        )}
        {preview && <PreviewTable preview={preview} />}
        {previewFailed && <Text color="fg.muted">File preview is not supported in this browser. Try Chrome or Firefox!</Text>}

        <HStack gap="6" wrap="wrap">
          <CheckboxField label="Allow duplicate files" checked={form.allowDuplicate} onChange={(v) => set('allowDuplicate', v)} />
          <CheckboxField label="Delete file after indexing" checked={form.deleteFile} onChange={(v) => set('deleteFile', v)} />
          <CheckboxField label="Extract from URL" checked={form.extractFromURL} onChange={(v) => set('extractFromURL', v)} />
        </HStack>
        {form.extractFromURL && (
          <Text fontSize="sm" color="fg.muted">
            The file at the source URL is fetched and indexed (without a chosen file).
          </Text>
        )}
        <SelectField
          label="Extract option"
          name="extractOption"
          value={form.extractOption}
          options={EXTRACT_OPTIONS}
          onChange={(v) => set('extractOption', extractOptionOf(v))}
          error={fieldError('extractOption')}
        />
        {perFile && <PerFileFields files={files} details={choices.perFile} onChange={(perFile) => setChoices({ ...choices, perFile })} disabled={uploading} />}
        {!perFile && (
          <TextField
            label="Record name"
            name="recordName"
            value={form.recordName}
            onChange={(v) => set('recordName', v)}
            error={fieldError('recordName')}
            helperText="Optional; the file name is used otherwise."
          />
        )}
        <TextField
          label="Source URL"
          name="recordSource"
          value={form.recordSource}
          onChange={(v) => set('recordSource', v)}
          error={fieldError('recordSource')}
          placeholder="https://"
        />
        {!perFile && (
          <TextField
            label="Description"
            name="recordDescription"
            multiline
            value={form.recordDescription}
            onChange={(v) => set('recordDescription', v)}
            error={fieldError('recordDescription')}
          />
        )}
        <TextField
          label="Provenance"
          name="recordProvenance"
          multiline
          value={form.recordProvenance}
          onChange={(v) => set('recordProvenance', v)}
          error={fieldError('recordProvenance')}
        />
        <CustomFieldsEditor fields={form.recordFields} onChange={(v) => set('recordFields', v)} error={fieldError('recordFields')} />

        <UploadTermsFields
          choices={choices}
          basic={basic}
          onChange={setChoices}
          visibilityError={fieldError('visibility')}
          accessError={fieldError('access')}
        />

        <ServerErrorAlert error={error} shownFields={Object.keys(FIELD_OF)} />
        {failure && <StatusAlert status="error" text={failure} />}
        {uploading && (
          <Progress.Root value={Math.round(progress * 100)} colorPalette="teal" aria-label="Upload progress" data-testid="upload-progress">
            <HStack gap="3">
              <Progress.Track flex="1">
                <Progress.Range />
              </Progress.Track>
              <Progress.ValueText>{progress < 1 ? `${Math.round(progress * 100)}%` : 'Indexing…'}</Progress.ValueText>
            </HStack>
          </Progress.Root>
        )}
        <HStack>
          <Button type="submit" colorPalette="teal" loading={uploading} loadingText="Uploading…">
            Index
          </Button>
          {uploading && (
            <Button variant="outline" onClick={() => abort.current?.abort()}>
              Cancel
            </Button>
          )}
        </HStack>
        <CreatedRecords records={created} title={created.length === 1 ? 'The record was created.' : `${created.length} records were created.`} />
      </Stack>
    </form>
  );
}
