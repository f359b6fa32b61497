import { z } from 'zod';
import { CLIENT_TYPES } from '@dc/contracts';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const text = (max: number, field: string) =>
  z
    .string({ error: 'Not a valid string.' })
    .trim()
    .min(1, 'This field may not be blank.')
    .max(max, `Ensure this field has no more than ${max} characters.`)
    .describe(field);

/** PUT /api/sso/settings/: the organisation's provider; a client secret left out keeps the stored one. */
export const ssoSettingsSchema = z.object({
  name: text(100, 'Shown on the login screen as "Sign in with <name>"'),
  issuer: text(500, "The provider's issuer URL (its discovery document is <issuer>/.well-known/openid-configuration)").refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash && !url.username;
    } catch {
      return false;
    }
  }, 'Enter a valid URL (https://…, without query or fragment).'),
  client_id: text(500, 'The client id the provider gave the product'),
  client_secret: z
    .string({ error: 'Not a valid string.' })
    .min(1, 'This field may not be blank.')
    .max(2000, 'Ensure this field has no more than 2000 characters.')
    .optional()
    .describe('The client secret; sealed when stored, never returned. Leave out to keep the stored one.'),
  allowed_domains: z
    .array(
      z
        .string({ error: 'Not a valid string.' })
        .trim()
        .toLowerCase()
        .transform((d) => d.replace(/^@/, ''))
        .refine((d) => DOMAIN.test(d), 'Enter a domain such as example.org.'),
      {
        error: 'Expected a list of items.',
      },
    )
    .min(1, 'List at least one email domain.')
    .max(50, 'Ensure this field has no more than 50 elements.')
    .describe('Email domains whose people may sign in (and get an account)'),
  client_type: z.enum(CLIENT_TYPES, { error: 'Choose STANDARD or BASIC.' }).describe('The plan of accounts made at first sign-in'),
});
export type SsoSettingsDto = z.infer<typeof ssoSettingsSchema>;

export const ssoProviderViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  client_secret_set: z.boolean(),
  allowed_domains: z.array(z.string()),
  client_type: z.enum(CLIENT_TYPES),
  updated_at: z.string(),
});

export const ssoSettingsViewSchema = z.object({
  redirect_uri: z.string().describe('What to register at the provider as the redirect (callback) URI'),
  provider: ssoProviderViewSchema.nullable(),
});

export const ssoProvidersSchema = z.array(z.object({ id: z.string(), name: z.string() }));

export const ssoExchangeSchema = z.object({ result: z.string({ error: 'This field is required.' }).min(1, 'This field may not be blank.').max(200) });
export type SsoExchangeDto = z.infer<typeof ssoExchangeSchema>;

export const ssoCallbackQuerySchema = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  iss: z.string().optional(),
});
