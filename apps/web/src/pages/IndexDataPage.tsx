import { Heading, Stack, Tabs } from '@chakra-ui/react';
import { useSearchParams } from 'react-router-dom';
import { HarvestTab } from '../harvest/HarvestTab';
import { IndexFilesTab } from '../records/IndexFilesTab';
import { DatabaseTab } from '../sources/DatabaseTab';
import { PrivateIndexingTab } from '../sources/PrivateIndexingTab';
import { S3Tab } from '../sources/S3Tab';

const TABS = [
  { value: 'files', label: 'Index Files' },
  { value: 'database', label: 'Index Database Table' },
  { value: 's3', label: 'Index AWS S3 Objects' },
  { value: 'private', label: 'Private Indexing' },
  { value: 'dcat', label: 'Import a DCAT catalogue' },
] as const;

/** Add data (spec section 2): four tabs, and the import of a DCAT catalogue; the tab is kept in `?tab=`. */
export function IndexDataPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = TABS.find((t) => t.value === requested)?.value ?? 'files';
  return (
    <Stack gap="6" maxW="6xl">
      <Heading as="h1" size="2xl">
        Add data
      </Heading>
      <Tabs.Root value={tab} onValueChange={(details) => setParams({ tab: details.value }, { replace: true })} colorPalette="teal" variant="line" lazyMount>
        <Tabs.List flexWrap="wrap">
          {TABS.map((t) => (
            <Tabs.Trigger key={t.value} value={t.value}>
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="files">
          <IndexFilesTab />
        </Tabs.Content>
        <Tabs.Content value="database">
          <DatabaseTab />
        </Tabs.Content>
        <Tabs.Content value="s3">
          <S3Tab />
        </Tabs.Content>
        <Tabs.Content value="private">
          <PrivateIndexingTab />
        </Tabs.Content>
        <Tabs.Content value="dcat">
          <HarvestTab />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}
