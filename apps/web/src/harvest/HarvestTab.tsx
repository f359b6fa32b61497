import { useState, type FormEvent } from 'react';
import { Button, Field, Input, Link, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { ApiError } from '../api/client';
import { StatusAlert } from '../components/StatusAlert';
import { TextField } from '../forms/TextField';
import { jobKeys } from '../shared/query-keys';
import { harvestApi, type HarvestStarted } from './harvest-api';

type Source = 'url' | 'file';

/**
 * Import a DCAT catalogue (docs/dcat-harvesting.md): its datasets become metadata-only records of
 * the caller's organisation, imported by a background job on the Jobs page. From a URL (fetched
 * by the server) or an uploaded Turtle or JSON-LD file.
 */
export function HarvestTab() {
  const queryClient = useQueryClient();
  const [source, setSource] = useState<Source>('url');
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const start = useMutation({
    mutationFn: (): Promise<HarvestStarted> => (source === 'url' ? harvestApi.fromUrl(url.trim()) : harvestApi.fromFile(file!)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: jobKeys.all }),
  });
  const error = start.error instanceof ApiError ? start.error : null;
  const fieldError = error?.fieldError(source);
  const otherError = start.isError && !fieldError ? (error?.message ?? 'The import could not be started. Please try again.') : null;
  const ready = source === 'url' ? url.trim() !== '' : file !== null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) start.mutate();
  };

  return (
    <Stack as="form" gap="5" maxW="3xl" onSubmit={submit} aria-labelledby="harvest-heading">
      <Stack gap="1">
        <Text as="h2" id="harvest-heading" fontSize="lg" fontWeight="semibold">
          Import a DCAT catalogue
        </Text>
        <Text color="fg.muted">
          Every dataset of another portal&apos;s DCAT-AP catalogue (Turtle or JSON-LD) becomes a metadata-only record of your organisation, with its title,
          description, keywords and distributions. Importing the same catalogue again updates those records instead of adding new ones.
        </Text>
      </Stack>
      <RadioGroup.Root
        value={source}
        onValueChange={(details) => {
          setSource(details.value as Source);
          start.reset();
        }}
        colorPalette="teal"
        aria-label="Where the catalogue comes from"
      >
        <Stack direction={{ base: 'column', sm: 'row' }} gap="5">
          <RadioGroup.Item value="url">
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>From a URL</RadioGroup.ItemText>
          </RadioGroup.Item>
          <RadioGroup.Item value="file">
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>Upload a file</RadioGroup.ItemText>
          </RadioGroup.Item>
        </Stack>
      </RadioGroup.Root>
      {source === 'url' ? (
        <TextField
          label="Catalogue URL"
          name="url"
          value={url}
          onChange={setUrl}
          required
          placeholder="https://data.example.org/catalog.ttl"
          helperText="The server fetches it; local and private network addresses are refused unless your operator allows them."
          error={fieldError}
        />
      ) : (
        <Field.Root required invalid={!!fieldError}>
          <Field.Label>
            Catalogue file
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            type="file"
            name="file"
            accept=".ttl,.jsonld,.json,.nt,.trig,text/turtle,application/ld+json"
            p="1"
            onChange={(event) => {
              setFile(event.currentTarget.files?.[0] ?? null);
              start.reset();
            }}
          />
          <Field.HelperText>Turtle (.ttl) or JSON-LD (.jsonld).</Field.HelperText>
          {fieldError && <Field.ErrorText>{fieldError}</Field.ErrorText>}
        </Field.Root>
      )}
      {otherError && <StatusAlert status="error" text={otherError} />}
      <div>
        <Button type="submit" colorPalette="teal" loading={start.isPending} loadingText="Reading the catalogue…" disabled={!ready}>
          Import
        </Button>
      </div>
      {start.isSuccess && (
        <Stack gap="2" role="status" data-testid="harvest-started">
          <Text fontWeight="medium">
            {start.data.datasets} dataset{start.data.datasets === 1 ? '' : 's'} found in {start.data.source}: the import is running.
          </Text>
          <Text>
            <Link asChild colorPalette="teal" fontWeight="medium">
              <RouterLink to="/jobs">Follow the import on the Jobs page</RouterLink>
            </Link>
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
