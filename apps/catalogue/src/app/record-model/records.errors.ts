import { DetailError } from '@dc/platform';

// Whatever the reason (missing, or hidden from the caller), a record the caller may not see answers notFound() (@dc/platform): ids reveal nothing.
export const forbidden = () => new DetailError('You do not have permission to perform this action.', 403);

export const NAME_REQUIRED = 'A name is required when no file is uploaded.';
export const BASIC_POLICY_REFUSED = 'Access policies are not available on your plan. Upgrade to assign one.';
export const BASIC_VISIBILITY_FIXED = 'On your plan records are visible to everyone (EV). Upgrade to choose who sees them.';
export const NO_STORED_FILE = 'This record has no stored file to download.';
export const DOWNLOAD_REFUSED = 'You may not download this data. Request access to it first.';
export const SOURCE_REQUIRED = 'Give the source URL to extract metadata from it.';
export const SOURCE_OR_FILES = 'Upload files or extract from the source URL, not both.';
export const LINK_WITHDRAWN = 'This download link is no longer valid.';
