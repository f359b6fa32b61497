import { Heading, Stack } from '@chakra-ui/react';
import { useParams } from 'react-router-dom';
import { LoadingState } from '../components/LoadingState';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { toApiError } from '../forms/use-form';
import { RecordActions } from '../records/RecordActions';
import { RecordHeader } from '../records/RecordHeader';
import { DownloadBlockedNotice } from '../records/LineagePanels';
import { RecordTabs } from '../records/RecordTabs';
import { RelatedRecords } from '../relations/RelatedRecords';
import { useRecord } from '../records/use-record';

/** Record details (spec section 2): the summary, actions and metadata tabs of #/records/{id}. */
export function RecordDetailsPage() {
  const { id = '' } = useParams();
  const query = useRecord(id);
  return (
    <Stack gap="6" maxW="6xl">
      {/* Until the record is there its name cannot title the page. */}
      {!query.data && (
        <Heading as="h1" size="2xl">
          Record details
        </Heading>
      )}
      {query.isPending && <LoadingState label="Loading the record…" />}
      {query.isError && <ServerErrorAlert error={toApiError(query.error)} title="The record could not be loaded." />}
      {query.data && (
        <>
          <RecordHeader record={query.data} />
          {/* Keyed by record: a dialog or a deletion in progress must not carry over to the next record shown. */}
          <RecordActions key={query.data.id} record={query.data} />
          <DownloadBlockedNotice record={query.data} />
          <RecordTabs record={query.data} />
          <RelatedRecords key={`related-${query.data.id}`} recordId={query.data.id} />
        </>
      )}
    </Stack>
  );
}
