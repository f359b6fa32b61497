import { z } from 'zod';
import { defineEvent } from './registry';

/**
 * The events of the product. Payloads carry what consumers keep in their projections.
 * Later issues extend these (record.*, file.*, request.*, job.*, merge.completed).
 */
const id = z.string().min(1);

/** What projections keep of a person (search cards, requests' requestor details and notification mails). */
const personDetails = {
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().optional(),
  groups: z.array(z.number().int()).optional().describe('Group ids: 1 Access Admin, 2 Data Admin, 3 Data Viewer.'),
};

export const OrganisationUpdated = defineEvent(
  'organisation.updated',
  1,
  'An organisation was created or changed',
  z.object({
    organisationId: id,
    name: z.string(),
    description: z.string().default(''),
    email: z.string().optional(),
  }),
);

export const UserRegistered = defineEvent(
  'user.registered',
  1,
  'A user account was created',
  z.object({
    userId: id,
    username: z.string(),
    organisationId: id,
    clientType: z.enum(['STANDARD', 'BASIC']),
    ...personDetails,
  }),
);

export const UserUpdated = defineEvent(
  'user.updated',
  1,
  'A user account changed',
  z.object({
    userId: id,
    username: z.string(),
    organisationId: id,
    clientType: z.enum(['STANDARD', 'BASIC']),
    active: z.boolean(),
    ...personDetails,
    deleted: z.boolean().optional().describe('The account was deleted (active is then false).'),
  }),
);

const oneLine = z
  .string()
  .min(1)
  .regex(/^[^\r\n]*$/, 'must be one line');

/** The values of identity's plain mail layout (libs/mailer renderPlainMail); all plain text. */
export const PlainMailValues = z.object({
  subject: oneLine,
  greeting: z.string().min(1).optional().describe('Defaults to "Hello,".'),
  paragraphs: z.array(z.string().min(1)).min(1),
  action: z
    .object({
      label: oneLine,
      path: z
        .string()
        .regex(/^\/(?!\/)/, 'must be a path of the product, starting with a single /')
        .describe('Put after PUBLIC_URL, e.g. /#/request.'),
    })
    .optional()
    .describe('A call to action: a button in HTML, a labelled link in text.'),
  signOff: z.string().min(1).optional().describe('Defaults to "The Data Catalogue team".'),
});

export const MailRequested = defineEvent(
  'mail.requested',
  1,
  "A service asks for an email to be sent: its own text, or identity's plain template filled with values",
  z.union([
    z.object({
      to: z.string().email(),
      subject: z.string(),
      text: z.string(),
      html: z.string().optional(),
    }),
    z.object({
      to: z.string().email(),
      template: z.literal('plain'),
      values: PlainMailValues,
    }),
  ]),
);
