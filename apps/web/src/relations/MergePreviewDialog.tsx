import { Badge, Button, Heading, HStack, List, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { LoadingState } from '../components/LoadingState';
import { ModalFrame, ModalSections } from '../components/ModalDialog';
import { StatusAlert } from '../components/StatusAlert';
import { jobErrorText } from '../jobs/job-rules';
import { jobsApi, type MergeCandidate, type MergePreview, type MergeType } from '../jobs/jobs-api';
import { jobKeys } from '../shared/query-keys';

/** Columns listed at first; the rest behind "and N more". */
const FIRST_COLUMNS = 30;

const HOW: Record<MergeType, string> = {
  horizontal: 'Horizontal merge: rows of both records whose chosen fields are equal are joined into one row, every other column kept.',
  vertical: 'Vertical merge: the rows of both records are stacked, one under the other, keeping only the chosen columns.',
};

/** The row figure in words: counted for a stack, estimated for a join, or why it is not shown. */
export function rowsText(preview: MergePreview): string {
  if (preview.estimated_rows === null) return 'Rows: not shown';
  const rows = preview.estimated_rows.toLocaleString('en');
  if (preview.rows_exact) return `Rows: ${rows}`;
  return preview.estimated_rows === 0 ? 'Rows: none expected (no values of the chosen fields match)' : `Rows: about ${rows} (estimated)`;
}

/**
 * Before Merge Horizontal or Merge Vertical starts: what each merge will make (the new record's name,
 * its columns, its rows), then Start merge. The figures come from merge-preview, which gives a join's
 * row estimate only to a caller who may download both records.
 */
export function MergePreviewDialog({
  request,
  starting,
  onStart,
  onClose,
}: {
  request: { relations: MergeCandidate[]; mergeType: MergeType } | null;
  starting: boolean;
  onStart(): void;
  onClose(): void;
}) {
  return (
    <ModalFrame open={!!request} onClose={onClose} size="lg" testId="merge-preview">
      {request && <PreviewBody request={request} starting={starting} onStart={onStart} onClose={onClose} />}
    </ModalFrame>
  );
}

function PreviewBody({
  request,
  starting,
  onStart,
  onClose,
}: {
  request: { relations: MergeCandidate[]; mergeType: MergeType };
  starting: boolean;
  onStart(): void;
  onClose(): void;
}) {
  const { relations, mergeType } = request;
  const preview = useQuery({
    queryKey: jobKeys.preview(
      mergeType,
      relations.map((r) => r.id),
    ),
    queryFn: ({ signal }) => jobsApi.preview(relations, mergeType, signal),
    retry: false,
  });
  const previews = preview.data?.previews ?? [];
  const startable = previews.some((p) => p.can_start);
  const title = mergeType === 'horizontal' ? 'Merge Horizontal: what it will make' : 'Merge Vertical: what it will make';
  return (
    <ModalSections
      title={title}
      onClose={onClose}
      closeLabel="Close the merge preview"
      before={
        <Button colorPalette="teal" disabled={!startable} loading={starting} onClick={onStart}>
          Start merge
        </Button>
      }
    >
      <Stack gap="4">
        <Text fontSize="sm">{HOW[mergeType]}</Text>
        {preview.isPending && <LoadingState label="Working out what the merge will make…" />}
        {preview.isError && <StatusAlert status="error" text={jobErrorText(preview.error)} />}
        {preview.data?.messages.map((message) => (
          <StatusAlert key={message} status="info" text={message} />
        ))}
        {previews.map((p) => (
          <PreviewCard key={`${p.record_left}|${p.record_right}`} preview={p} />
        ))}
      </Stack>
    </ModalSections>
  );
}

function PreviewCard({ preview }: { preview: MergePreview }) {
  const shown = preview.columns.slice(0, FIRST_COLUMNS);
  const more = preview.columns.length - shown.length;
  return (
    <Stack as="section" aria-label={`New record: ${preview.name}`} gap="2" borderWidth="1px" borderRadius="md" p="3" data-testid="merge-preview-result">
      <Text fontSize="xs" color="fg.muted">
        New record
      </Text>
      <Heading as="h3" size="sm" data-testid="merge-preview-name">
        {preview.name}
      </Heading>
      <HStack gap="2" wrap="wrap">
        <Badge colorPalette="teal" data-testid="merge-preview-rows">
          {rowsText(preview)}
        </Badge>
        <Badge colorPalette="gray" data-testid="merge-preview-column-count">
          {`Columns: ${preview.columns.length}${preview.columns_complete ? '' : ' or more'}`}
        </Badge>
      </HStack>
      {preview.note && <StatusAlert status="info" text={preview.note} />}
      {preview.columns.length > 0 && (
        <List.Root aria-label={`Columns of ${preview.name}`} fontSize="sm" ps="5" data-testid="merge-preview-columns">
          {shown.map((column, index) => (
            <List.Item key={`${index}-${column}`}>{column}</List.Item>
          ))}
          {more > 0 && <List.Item>{`and ${more} more`}</List.Item>}
        </List.Root>
      )}
    </Stack>
  );
}
