import { useState } from 'react';
import { Accordion, Badge, Button, DataList, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LoadingState } from '../components/LoadingState';
import { toaster } from '../shell/toaster';
import { GroupDialog } from '../sharing/GroupDialog';
import { day } from '../sharing/request-rules';
import { sharingApi } from '../sharing/sharing-api';
import { useConfirmedDelete } from '../sharing/use-confirmed-delete';
import { GROUP_DELETE_FAILED, GROUP_DELETED, GROUP_NOT_RETRIEVED, NO_PERMISSION, NO_PROJECTS } from '../sharing/texts';
import type { Group } from '../sharing/types';
import { sharingKeys } from '../shared/query-keys';
import { StatusAlert } from '../components/StatusAlert';

/** Not a spec text (section 8 lists the record, connection and account questions only). */
export const DELETE_GROUP_QUESTION = 'Are you sure you want to delete this project?';

/** A project's facts, then its own fields (label, text). */
const groupFacts = (group: Group): Array<[string, string]> => [
  ['Created', day(group.created)],
  ['Changed', day(group.changed)],
  ['Owner', group.owner || 'N/A'],
  ...Object.entries(group.fields),
];

/**
 * Projects (spec section 2, "Groups (projects)"; the API calls them groups): users see one word,
 * Project, apart from the Accounts tab's permission groups. Spec section 8's fixed texts keep
 * theirs ("Record Group could not be retrieved.", "Group was deleted.").
 */
export function GroupsPage() {
  const { isSignedIn } = useAuth();
  const groups = useQuery({ queryKey: sharingKeys.groupList(), queryFn: ({ signal }) => sharingApi.groups(undefined, signal), enabled: isSignedIn });
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const { setDeleting, dialog } = useConfirmedDelete<Group>({
    remove: sharingApi.deleteGroup,
    listKey: sharingKeys.groups,
    deletedText: GROUP_DELETED,
    failedText: GROUP_DELETE_FAILED,
  });

  const list = groups.data?.groups ?? [];
  return (
    <Stack gap="5" maxW="4xl">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Stack gap="1">
          <Heading as="h1" size="2xl">
            Projects
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            Projects of your organisation: collect records you work on together. A project never changes who may see a record. (The permission groups of Profile
            → Accounts, such as Data Admin, are something else.)
          </Text>
        </Stack>
        {isSignedIn && (
          <Button colorPalette="teal" onClick={() => setEditing('new')}>
            New Project
          </Button>
        )}
      </HStack>
      {!isSignedIn && <Text color="fg.muted">Log in to see your organisation&apos;s projects.</Text>}
      {groups.isPending && isSignedIn && <LoadingState label="Loading projects…" />}
      {groups.isError && <StatusAlert status="error" text={GROUP_NOT_RETRIEVED} />}
      {groups.isSuccess && list.length === 0 && (
        <Text color="fg.muted" data-testid="groups-empty">
          {NO_PROJECTS}
        </Text>
      )}
      {list.length > 0 && (
        <Accordion.Root multiple collapsible variant="enclosed" aria-label="Projects">
          {list.map((group) => (
            <Accordion.Item key={group.id} value={group.id} data-testid="group-item">
              <Accordion.ItemTrigger>
                <HStack flex="1" gap="3">
                  <Text fontWeight="semibold">{group.name}</Text>
                  <Badge variant="subtle">{group.record_count === 1 ? '1 record' : `${group.record_count} records`}</Badge>
                </HStack>
                <Accordion.ItemIndicator />
              </Accordion.ItemTrigger>
              <Accordion.ItemContent>
                <Accordion.ItemBody>
                  <Stack gap="3">
                    <Text>{group.description || 'No description.'}</Text>
                    <DataList.Root orientation="horizontal" size="sm">
                      {groupFacts(group).map(([label, value], i) => (
                        <DataList.Item key={`${label}-${i}`}>
                          <DataList.ItemLabel>{label}</DataList.ItemLabel>
                          <DataList.ItemValue>{value}</DataList.ItemValue>
                        </DataList.Item>
                      ))}
                    </DataList.Root>
                    <HStack gap="2" wrap="wrap">
                      <Link asChild colorPalette="teal" fontSize="sm">
                        <RouterLink to={`/records?group=${encodeURIComponent(group.id)}`}>Show its records</RouterLink>
                      </Link>
                      <HStack gap="2" ms="auto">
                        <Button
                          size="sm"
                          variant="outline"
                          colorPalette="red"
                          onClick={() => (group.can_edit ? setDeleting(group) : toaster.create({ type: 'error', title: NO_PERMISSION }))}
                        >
                          Delete Project
                        </Button>
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => (group.can_edit ? setEditing(group) : toaster.create({ type: 'error', title: NO_PERMISSION }))}
                        >
                          Edit Project
                        </Button>
                      </HStack>
                    </HStack>
                  </Stack>
                </Accordion.ItemBody>
              </Accordion.ItemContent>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      )}
      {editing && <GroupDialog key={editing === 'new' ? 'new' : editing.id} group={editing === 'new' ? null : editing} open onClose={() => setEditing(null)} />}
      <ConfirmDialog {...dialog} title="Delete Project" message={DELETE_GROUP_QUESTION} />
    </Stack>
  );
}
