import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Grid, Heading, HStack, Link, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { MergeScanPanel } from '../relations/MergeScanPanel';
import { relationErrorText, relationsApi, type MergeScanResult } from '../relations/relations-api';
import { WorkAreaPanel } from '../relations/WorkAreaPanel';
import { WorkAreaProvider, type WorkAreaRecord } from '../relations/work-area';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { sharingApi } from '../sharing/sharing-api';
import { useAuth } from '../auth/AuthProvider';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LoadingState } from '../components/LoadingState';
import { RecordsScopeToggle, useRecordsScope } from '../shell/records-scope';
import { useSearchQuery } from '../shell/search-query';
import { toaster } from '../shell/toaster';
import { GridIcon, TableIcon } from '../components/icons';
import { recordCountLabel } from '../shared/card-rules';
import { RecordCard } from './RecordCard';
import { RecordsTable } from './RecordsTable';
import { ScrollSentinel } from './ScrollSentinel';
import type { RecordCardData, RecordsSearch } from './types';
import { useDeleteRecords, useRecordsList } from './use-records';
import { useElementSize } from './use-element-size';
import { useMediaQuery } from '../shell/use-media-query';
import { config } from '../config';
import { WorkAreaDock } from './WorkAreaDock';
import { sharingKeys } from '../shared/query-keys';

export const END_OF_INDEX = "You've reached the end of the index for this search!";
export const NO_RESULTS = 'No results found.';
export const DELETE_ONE = 'Are you sure you want to delete this record?';

type Layout = 'grid' | 'table';

/** Cards are 300 to 401 px wide (spec section 9), 16 px apart. */
const CARD_MIN_PX = 300;
const GAP_PX = 16;
const SIDE_AREA_PX = 288; // 18rem
/**
 * The narrowest Workspace that keeps the work area beside three columns of cards. Narrower (a laptop
 * with the sidebar open, a tablet, a phone), the work area becomes a bar at the bottom of the screen.
 */
export const SIDE_AREA_MIN_PX = 3 * CARD_MIN_PX + 2 * GAP_PX + GAP_PX + SIDE_AREA_PX;
const LAYOUT_KEY = 'dc.workspaceLayout';

function readLayout(): Layout {
  try {
    return localStorage.getItem(LAYOUT_KEY) === 'table' ? 'table' : 'grid';
  } catch {
    return 'grid';
  }
}

/** The Records list (spec section 2, "Records list (Workspace)") beside its work area. */
export function Workspace() {
  return (
    <WorkAreaProvider>
      <WorkspaceWithArea />
    </WorkAreaProvider>
  );
}

function WorkspaceWithArea() {
  const { isSignedIn } = useAuth();
  const { scope } = useRecordsScope();
  const query = useSearchQuery();
  const [params, setParams] = useSearchParams();
  const refid = params.get('refid') ?? '';
  // The project filter (search `group`), in the address so a project's "Show its records" link opens it.
  const group = isSignedIn ? (params.get('group') ?? '') : '';
  const projects = useQuery({ queryKey: sharingKeys.groupList(), queryFn: ({ signal }) => sharingApi.groups(undefined, signal), enabled: isSignedIn });
  const setGroup = (next: string) => {
    const merged = new URLSearchParams(params);
    if (next) merged.set('group', next);
    else merged.delete('group');
    setParams(merged, { replace: true });
  };
  const [layout, setLayoutState] = useState<Layout>(readLayout);
  const search: RecordsSearch = { query, refid, view: isSignedIn ? scope : 'all', group };
  const list = useRecordsList(search);
  const remove = useDeleteRecords();
  const [toDelete, setToDelete] = useState<RecordCardData[] | null>(null);
  const [scan, setScan] = useState<MergeScanResult | null>(null);
  const mergeScan = useMutation({
    mutationFn: (records: WorkAreaRecord[]) => relationsApi.mergeScan(records.map((r) => r.id)),
    onSuccess: setScan,
    onError: (error) => toaster.create({ type: 'error', title: relationErrorText(error) }),
  });
  const scanning = mergeScan.isPending;
  const scanToMerge = (records: WorkAreaRecord[]) => mergeScan.mutate(records);
  const [measure, size] = useElementSize<HTMLDivElement>();
  const side = !!size && size.width >= SIDE_AREA_MIN_PX;
  const wide = useMediaQuery(`(min-width: ${config.narrowBreakpointPx}px)`);
  const scanPanel = useRef<HTMLDivElement>(null);
  // The scan's results replace the list: bring them into view wherever the user had scrolled.
  useEffect(() => {
    if (scan) scanPanel.current?.scrollIntoView({ block: 'start' });
  }, [scan]);

  const records = list.data?.pages.flatMap((page) => page.results) ?? [];
  const count = list.data?.pages.at(-1)?.count ?? 0;
  const countCapped = !!list.data?.pages.at(-1)?.count_capped;
  const loaded = list.isSuccess;
  const empty = loaded && records.length === 0;

  function setLayout(next: Layout) {
    setLayoutState(next);
    try {
      localStorage.setItem(LAYOUT_KEY, next);
    } catch {
      // Only this visit remembers it.
    }
  }

  function confirmDelete() {
    if (!toDelete) return;
    remove.mutate(
      toDelete.map((record) => record.id),
      {
        onSuccess: (ids) => {
          setToDelete(null);
          toaster.create({ type: 'success', title: ids.length === 1 ? 'The record was deleted.' : `${ids.length} records were deleted.` });
        },
      },
    );
  }

  const content = (
    <Stack gap="4" minW="0">
      <Stack gap="1">
        <Heading as="h1" size="2xl">
          Workspace
        </Heading>
        <Text fontSize="sm" color="fg.muted" data-testid="records-search-summary" aria-live="polite">
          {refid ? 'Datasets similar to the chosen record' : query ? `Search: “${query}”` : 'No search query'}
          {isSignedIn ? ` · showing ${scope === 'own' ? 'your own' : 'all'} records` : ''}
          {group ? ` in the project ${projects.data?.groups.find((p) => p.id === group)?.name ?? ''}` : ''}
          {loaded ? ` · ${recordCountLabel(count, countCapped)}` : ''}
        </Text>
      </Stack>

      <HStack gap="3" wrap="wrap">
        {isSignedIn && (
          <>
            <NativeSelect.Root size="sm" width="48">
              <NativeSelect.Field aria-label="Project" value={group} onChange={(event) => setGroup(event.currentTarget.value)}>
                <option value="">All projects</option>
                {(projects.data?.groups ?? []).map((project) => (
                  <option key={project.id} value={project.id}>
                    {project.name}
                  </option>
                ))}
                {group && projects.isSuccess && !projects.data.groups.some((p) => p.id === group) && <option value={group}>Unknown project</option>}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Link asChild colorPalette="teal" fontSize="sm">
              <RouterLink to="/groups">Manage projects</RouterLink>
            </Link>
            <RecordsScopeToggle label="Workspace records shown" ownLabel="My records" allLabel="All records" />
          </>
        )}
        <HStack gap="1" ms="auto" role="group" aria-label="Layout">
          <Button size="sm" variant={layout === 'grid' ? 'solid' : 'outline'} aria-pressed={layout === 'grid'} onClick={() => setLayout('grid')}>
            <GridIcon /> Grid
          </Button>
          <Button size="sm" variant={layout === 'table' ? 'solid' : 'outline'} aria-pressed={layout === 'table'} onClick={() => setLayout('table')}>
            <TableIcon /> Table
          </Button>
        </HStack>
      </HStack>

      {list.isError && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>An error occured, please try again.</Alert.Title>
        </Alert.Root>
      )}

      {scan && (
        <Box ref={scanPanel} scrollMarginTop="20">
          <MergeScanPanel result={scan} onCancel={() => setScan(null)} />
        </Box>
      )}

      {/* While scan results are shown, the normal list is hidden (spec: Merge Scan Results panel). */}
      {!scan &&
        records.length > 0 &&
        (layout === 'grid' ? (
          <Grid templateColumns={`repeat(auto-fill, minmax(${CARD_MIN_PX}px, 1fr))`} gap={`${GAP_PX}px`} data-testid="records-grid">
            {records.map((record) => (
              <RecordCard key={record.id} record={record} signedIn={isSignedIn} onDelete={(one) => setToDelete([one])} />
            ))}
          </Grid>
        ) : (
          <RecordsTable records={records} signedIn={isSignedIn} onDelete={setToDelete} />
        ))}

      {(list.isPending || list.isFetchingNextPage) && <LoadingState label="Loading records…" />}
      {list.hasNextPage && !list.isFetchingNextPage && (
        <>
          <ScrollSentinel onVisible={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} />
          <Button alignSelf="center" size="sm" variant="ghost" onClick={() => void list.fetchNextPage()}>
            Load more
          </Button>
        </>
      )}

      {empty && isSignedIn && !query && !refid && !group ? (
        <Stack align="center" gap="2" py="8" data-testid="records-empty">
          <Text color="fg.muted">You have no records yet.</Text>
          <Link asChild colorPalette="teal" fontWeight="semibold" fontSize="lg">
            <RouterLink to="/indexdata">Start adding data!</RouterLink>
          </Link>
        </Stack>
      ) : empty ? (
        <Text textAlign="center" color="fg.muted" py="8" data-testid="records-empty">
          {NO_RESULTS}
        </Text>
      ) : null}
      {loaded && records.length > 0 && !list.hasNextPage && (
        <Text textAlign="center" color="fg.muted" py="4" data-testid="records-end">
          {END_OF_INDEX}
        </Text>
      )}

      <ConfirmDialog
        open={!!toDelete}
        title={toDelete && toDelete.length > 1 ? 'Delete records' : 'Delete record'}
        message={toDelete && toDelete.length > 1 ? `Are you sure you want to delete these ${toDelete.length} records?` : DELETE_ONE}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => {
          setToDelete(null);
          remove.reset();
        }}
      >
        {remove.error && <Text color="fg.error">{remove.error.message}</Text>}
      </ConfirmDialog>
    </Stack>
  );
  // One tree whether the work area stands beside the list or sits in the bar below it: switching (a
  // resized window, the sidebar toggled) must not remount the list and lose, say, the scan's chosen pairs.
  return (
    <Grid ref={measure} templateColumns={side ? `minmax(0, 1fr) ${SIDE_AREA_PX}px` : 'minmax(0, 1fr)'} columnGap={`${GAP_PX}px`} alignItems="start">
      {content}
      {side ? (
        <Box position="sticky" top="20">
          <WorkAreaPanel signedIn={isSignedIn} onScan={scanToMerge} scanning={scanning} />
        </Box>
      ) : (
        size && <WorkAreaDock signedIn={isSignedIn} onScan={scanToMerge} scanning={scanning} compact={!wide} />
      )}
    </Grid>
  );
}
