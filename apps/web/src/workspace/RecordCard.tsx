import { useState } from 'react';
import { Badge, Box, Button, Card, HStack, IconButton, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { ProjectDialog } from '../sharing/ProjectDialog';
import { RequestDialog } from '../sharing/RequestDialog';
import { toaster } from '../shell/toaster';
import { Hint } from '../components/Hint';
import { RECORD_DRAG_TYPE, toAreaRecord, useWorkArea } from '../relations/work-area';
import { CopyIcon, DeleteIcon, DownloadIcon, EditIcon, LinkIcon, SimilarIcon } from '../components/icons';
import { formatDate, formatSize, truncate } from '../lib/format';
import { DESCRIPTION_LIMIT, displayName, NAME_LIMIT, ORIGIN_LIMIT, TYPE_LIMIT, visibilityLabel } from './format';
import { canDownload, canRequest, downloadColor, LOGIN_TO_LINK, LOGIN_TO_REQUEST, requestLabel, useCopyRecordLink, useDownloadRecord } from './record-actions';
import type { RecordCardData } from './types';

interface RecordCardProps {
  record: RecordCardData;
  signedIn: boolean;
  onDelete(record: RecordCardData): void;
}

function Field({ label, value, title }: { label: string; value: string; title?: string }) {
  return (
    <HStack gap="2" fontSize="sm" align="baseline">
      <Text color="fg.muted" minW="16" flexShrink="0">
        {label}
      </Text>
      <Text truncate title={title}>
        {value}
      </Text>
    </HStack>
  );
}

/** A record of the Workspace grid (spec section 2, Record card). */
export function RecordCard({ record, signedIn, onDelete }: RecordCardProps) {
  const [dialog, setDialog] = useState<'request' | 'project' | null>(null);
  const copyLink = useCopyRecordLink();
  const download = useDownloadRecord();
  const fullName = displayName(record.name, record.alt_name);
  const name = truncate(fullName, NAME_LIMIT);
  const typeText = truncate(record.type || 'Record', TYPE_LIMIT);
  const request = requestLabel(record);
  const headers = record.headers ?? [];
  const area = useWorkArea();
  const inArea = area.has(record.id);
  const areaEntry = toAreaRecord({ ...record, name: fullName });
  const linkable = (record.enc_headers?.length ?? 0) > 0;

  function process() {
    area.add(areaEntry);
    toaster.create({ type: 'info', title: `${truncate(fullName, NAME_LIMIT)} is in the work area.` });
  }

  function requestRecord() {
    if (!signedIn) {
      toaster.create({ type: 'warning', title: LOGIN_TO_REQUEST });
      return;
    }
    setDialog('request');
  }

  /** The link icon puts the record in the work area, where Link Datasets links two records with hashed columns. */
  function linkRecord() {
    if (!signedIn) {
      toaster.create({ type: 'warning', title: LOGIN_TO_LINK });
      return;
    }
    area.add(areaEntry);
    toaster.create(
      linkable
        ? { type: 'info', title: `${truncate(fullName, NAME_LIMIT)} is in the work area for linking.` }
        : { type: 'warning', title: `${truncate(fullName, NAME_LIMIT)} is in the work area, but it has no hashed columns to link on.` },
    );
  }

  return (
    <Card.Root
      as="article"
      aria-label={fullName}
      data-testid={`record-card-${record.id}`}
      minW="300px"
      maxW="401px"
      w="100%"
      size="sm"
      variant="outline"
      draggable
      cursor="grab"
      onDragStart={(event: React.DragEvent) => {
        event.dataTransfer.setData(RECORD_DRAG_TYPE, JSON.stringify(areaEntry));
        event.dataTransfer.effectAllowed = 'copy';
      }}
    >
      <Card.Header pb="1">
        <Card.Title as="h2" fontSize="md" lineHeight="short" wordBreak="break-word">
          {/* The title opens the record, as a name does everywhere else. */}
          <Link asChild colorPalette="teal" color="colorPalette.fg" title={name === fullName ? undefined : fullName}>
            <RouterLink to={`/records/${record.id}`}>{name}</RouterLink>
          </Link>
        </Card.Title>
        <Text fontSize="sm" color="fg.muted" data-testid="record-owner">
          by {record.user || 'unknown'}
          {record.organisation?.name ? ` · ${record.organisation.name}` : ''}
        </Text>
      </Card.Header>
      <Card.Body py="2" gap="2">
        <Stack gap="1">
          <Field label="Origin" value={record.origin ? truncate(record.origin, ORIGIN_LIMIT) : 'N/A'} title={record.origin ?? undefined} />
          <HStack gap="2" fontSize="sm" align="baseline">
            <Text color="fg.muted" minW="16" flexShrink="0">
              UUID
            </Text>
            <Link asChild colorPalette="teal" truncate fontFamily="mono" fontSize="xs">
              <RouterLink to={`/records/${record.id}`} aria-label={`Details of ${fullName}: ${record.id}`}>
                {record.id}
              </RouterLink>
            </Link>
          </HStack>
          <Field label="Visibility" value={visibilityLabel(record.visibility)} />
          <Field label="Size" value={formatSize(record.size)} />
          <Field label="Type" value={record.type ? truncate(record.type, TYPE_LIMIT) : 'N/A'} title={record.type ?? undefined} />
          <Field label="Changed" value={formatDate(record.date_changed)} />
        </Stack>
        <Text fontSize="sm" data-testid="record-description" wordBreak="break-word">
          {truncate(record.description, DESCRIPTION_LIMIT) || 'No description.'}
        </Text>
        <Box as="details" fontSize="sm" borderWidth="1px" borderRadius="md" px="2" py="1">
          <Box as="summary" cursor="pointer" fontWeight="medium">
            Schema · {record.total_rows ?? 0} rows
          </Box>
          <Stack gap="1" pt="1">
            {headers.length > 0 ? (
              <HStack wrap="wrap" gap="1">
                {headers.map((header) => (
                  <Badge key={header} variant="subtle">
                    {header}
                  </Badge>
                ))}
              </HStack>
            ) : (
              <Text color="fg.muted">No column headers.</Text>
            )}
            <Text>Total rows: {record.total_rows ?? 0}</Text>
          </Stack>
        </Box>
      </Card.Body>
      <Card.Footer pt="1" flexWrap="wrap" gap="1.5">
        <Button asChild size="xs" variant="subtle" colorPalette="teal">
          <RouterLink to={`/records/${record.id}`} aria-label={`Open ${typeText} details of ${fullName}`} title={record.type ?? undefined}>
            {typeText}
          </RouterLink>
        </Button>
        <Hint label="Find similar datasets">
          <IconButton asChild size="xs" variant="ghost" aria-label="Find similar datasets">
            <RouterLink to={`/records?refid=${encodeURIComponent(record.id)}`}>
              <SimilarIcon />
            </RouterLink>
          </IconButton>
        </Hint>
        <Hint
          label={
            !signedIn ? LOGIN_TO_LINK : linkable ? `Link record (hashed columns: ${record.enc_headers!.join(', ')})` : 'Link record (it has no hashed columns)'
          }
        >
          <IconButton
            size="xs"
            variant="ghost"
            aria-label="Link record"
            aria-disabled={!signedIn || undefined}
            colorPalette={linkable ? 'teal' : undefined}
            data-linkable={linkable ? 'true' : 'false'}
            opacity={signedIn ? 1 : 0.5}
            onClick={linkRecord}
          >
            <LinkIcon />
          </IconButton>
        </Hint>
        {canDownload(record) && (
          <Hint label="Data download">
            <IconButton
              size="xs"
              variant="solid"
              colorPalette={downloadColor(record)}
              aria-label="Data download"
              data-owner={record.is_owner ? 'true' : 'false'}
              onClick={() => void download(record)}
            >
              <DownloadIcon />
            </IconButton>
          </Hint>
        )}
        {signedIn && (
          <Button size="xs" variant="outline" onClick={() => setDialog('project')} aria-label={`Add ${fullName} to a project`}>
            Project
          </Button>
        )}
        {canRequest(record) && (
          <Button size="xs" variant="outline" colorPalette="orange" disabled={request.locked} onClick={requestRecord}>
            {request.label}
          </Button>
        )}
        <Hint label="Copy record URL">
          <IconButton size="xs" variant="ghost" aria-label="Copy record URL" onClick={() => void copyLink(record)}>
            <CopyIcon />
          </IconButton>
        </Hint>
        {record.edit && (
          <Hint label="Edit record">
            <IconButton asChild size="xs" variant="ghost" aria-label="Edit record">
              <RouterLink to={`/records/edit/${record.id}`}>
                <EditIcon />
              </RouterLink>
            </IconButton>
          </Hint>
        )}
        {record.can_delete && (
          <Hint label="Delete record">
            <IconButton size="xs" variant="ghost" colorPalette="red" aria-label="Delete record" onClick={() => onDelete(record)}>
              <DeleteIcon />
            </IconButton>
          </Hint>
        )}
        <Button
          size="xs"
          variant="outline"
          onClick={process}
          disabled={inArea}
          aria-label={inArea ? `In work area: ${fullName}` : `Process ${fullName}`}
          title="Add to the work area"
        >
          {inArea ? 'In work area' : 'Process'}
        </Button>
      </Card.Footer>
      {dialog === 'request' && <RequestDialog recordId={record.id} recordName={fullName} onClose={() => setDialog(null)} />}
      {dialog === 'project' && <ProjectDialog recordId={record.id} recordName={fullName} onClose={() => setDialog(null)} />}
    </Card.Root>
  );
}
