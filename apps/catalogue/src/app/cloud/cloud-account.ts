import { z } from 'zod';
import { isoDateTime } from '@dc/platform';

/** A saved cloud account (spec section 3): the secret access key stays sealed. */
export interface CloudAccount {
  id: string;
  ownerId: string;
  organisationId: string;
  accessKeyId: string;
  sealedSecret: string;
  /** '' for AWS itself. */
  endpoint: string;
  region: string;
  createdAt: Date;
}

/** What the API shows of an account: never the secret. */
export const cloudAccountViewSchema = z.object({
  id: z.string(),
  AwsAccessKeyId: z.string(),
  endpoint: z.string().describe("'' for AWS itself"),
  region: z.string(),
  date_created: isoDateTime,
});

export function cloudAccountView(account: CloudAccount): z.output<typeof cloudAccountViewSchema> {
  return {
    id: account.id,
    AwsAccessKeyId: account.accessKeyId,
    endpoint: account.endpoint,
    region: account.region,
    date_created: account.createdAt.toISOString(),
  };
}
