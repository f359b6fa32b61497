import { Alert, Fieldset, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { SelectField } from '../components/SelectField';
import { TextField } from '../forms/TextField';
import type { UploadChoices } from './records-api';

export const VISIBILITY_CHOICES: Array<[string, UploadChoices['visibility']]> = [
  ['Private', 'PR'],
  ['Everyone', 'EV'],
];
export const ACCESS_CHOICES: Array<[string, UploadChoices['access']]> = [
  ['Request', 'RE'],
  ['Open', 'OP'],
];

export const BASIC_EVERYONE_TITLE = 'These records will be visible to everyone.';
export const BASIC_EVERYONE_TEXT =
  'On the BASIC plan every record is visible to everyone, visitors who are not signed in included. Do not index data that must stay private.';

const VISIBILITY_HELP: Record<UploadChoices['visibility'], string> = {
  PR: 'Only you see the new records until you share them. To choose organisations or people, edit a record afterwards (Custom).',
  EV: 'Anyone, visitors who are not signed in included, can find the new records and read their descriptions.',
};
const ACCESS_HELP: Record<UploadChoices['access'], string> = {
  RE: 'People who want the data send you a request, and you decide.',
  OP: 'Anyone who can see a record can download its data without asking.',
};

interface TermsProps {
  choices: UploadChoices;
  basic: boolean;
  onChange(choices: UploadChoices): void;
  visibilityError?: string;
  accessError?: string;
}

/** Visibility and access of the records an upload makes; on the BASIC plan, Everyone, shown with the reason. */
export function UploadTermsFields({ choices, basic, onChange, visibilityError, accessError }: TermsProps) {
  return (
    <Fieldset.Root>
      <Fieldset.Legend fontSize="md" fontWeight="semibold">
        Who sees the new records
      </Fieldset.Legend>
      <Stack gap="4" mt="2">
        {basic ? (
          <Stack gap="2">
            <SelectField
              label="Visibility"
              name="visibility"
              value="EV"
              options={[['Everyone', 'EV']]}
              onChange={() => undefined}
              disabled
              error={visibilityError}
            />
            <Alert.Root status="warning" data-testid="basic-visibility">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{BASIC_EVERYONE_TITLE}</Alert.Title>
                <Alert.Description>
                  {BASIC_EVERYONE_TEXT}{' '}
                  <Link asChild colorPalette="teal" fontWeight="medium">
                    <RouterLink to="/indexdata">Upgrade</RouterLink>
                  </Link>{' '}
                  to choose who sees them.
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          </Stack>
        ) : (
          <SelectField
            label="Visibility"
            name="visibility"
            value={choices.visibility}
            options={VISIBILITY_CHOICES}
            onChange={(v) => onChange({ ...choices, visibility: v === 'EV' ? 'EV' : 'PR' })}
            helperText={VISIBILITY_HELP[choices.visibility]}
            error={visibilityError}
          />
        )}
        <SelectField
          label="Access"
          name="access"
          value={choices.access}
          options={ACCESS_CHOICES}
          onChange={(v) => onChange({ ...choices, access: v === 'OP' ? 'OP' : 'RE' })}
          helperText={ACCESS_HELP[choices.access]}
          error={accessError}
        />
      </Stack>
    </Fieldset.Root>
  );
}

interface PerFileProps {
  files: readonly File[];
  details: UploadChoices['perFile'];
  onChange(details: UploadChoices['perFile']): void;
  disabled?: boolean;
}

/** A name and a description for each file of a multi-file upload (one record per file). */
export function PerFileFields({ files, details, onChange, disabled }: PerFileProps) {
  const set = (index: number, key: 'name' | 'description', value: string) =>
    onChange(files.map((_, i) => ({ name: details[i]?.name ?? '', description: details[i]?.description ?? '', ...(i === index && { [key]: value }) })));
  return (
    <Fieldset.Root disabled={disabled}>
      <Fieldset.Legend fontSize="md" fontWeight="semibold">
        Name and description of each record
      </Fieldset.Legend>
      <Fieldset.HelperText>One record is made per file. A blank name keeps the file name.</Fieldset.HelperText>
      <Stack gap="4" mt="2">
        {files.map((file, index) => (
          <Stack key={`${index}-${file.name}`} gap="2" borderWidth="1px" borderRadius="md" p="3" data-testid="file-details">
            <Text fontWeight="medium" fontSize="sm" wordBreak="break-all">
              {index + 1}. {file.name}
            </Text>
            <TextField
              label={`Name of ${file.name}`}
              name={`fileName-${index}`}
              value={details[index]?.name ?? ''}
              placeholder={file.name}
              onChange={(v) => set(index, 'name', v)}
            />
            <TextField
              label={`Description of ${file.name}`}
              name={`fileDescription-${index}`}
              multiline
              value={details[index]?.description ?? ''}
              onChange={(v) => set(index, 'description', v)}
            />
          </Stack>
        ))}
      </Stack>
    </Fieldset.Root>
  );
}
