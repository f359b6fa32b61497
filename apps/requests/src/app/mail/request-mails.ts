import { createEvent, EventEnvelope, MailRequested } from '@dc/contracts';
import type { Person } from '../directory/directory.repository';

/**
 * The requests service's mails, as mail.requested events in identity's plain layout (identity sends
 * them; links go under PUBLIC_URL). Who gets what: the owner side when a request is sent, the
 * requestor when it is approved, denied or revoked, the other party when a message arrives.
 */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();
/** Names inside sentences stay readable however long they are. */
const short = (text: string, max = 120) => {
  const line = oneLine(text);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};
const greeting = (to: Person) => `Hello ${to.firstName || to.username},`;
export const requestPath = (requestId: string, tab: 'sent' | 'received') => `/#/request?tab=${tab}&id=${encodeURIComponent(requestId)}`;

interface MailFacts {
  requestId: string;
  recordName: string;
  correlationId?: string;
}

function mail(to: Person, facts: MailFacts, subject: string, paragraphs: string[], action: { label: string; tab: 'sent' | 'received' }): EventEnvelope | null {
  if (!to.email) return null;
  return createEvent(
    MailRequested,
    facts.requestId,
    {
      to: to.email,
      template: 'plain',
      values: {
        subject: short(subject, 200),
        greeting: greeting(to),
        paragraphs,
        action: { label: action.label, path: requestPath(facts.requestId, action.tab) },
      },
    },
    { correlationId: facts.correlationId },
  );
}

const present = (events: Array<EventEnvelope | null>) => events.filter((e): e is EventEnvelope => e !== null);

/** To each reviewer (the owner and the organisation's Data Admins) when a request is sent. */
export function requestSentMails(
  reviewers: Person[],
  requestor: { username: string; organisationName: string },
  purpose: string,
  facts: MailFacts,
): EventEnvelope[] {
  const who = requestor.organisationName ? `${requestor.username} of ${short(requestor.organisationName)}` : requestor.username;
  return present(
    reviewers.map((to) =>
      mail(
        to,
        facts,
        `New data request for "${facts.recordName}"`,
        [
          `${who} asks for access to "${short(facts.recordName)}".`,
          `Purpose: ${purpose ? short(purpose, 500) : '< None stated >'}`,
          'Open the request to review it and answer in its message thread.',
        ],
        { label: 'Review the request', tab: 'received' },
      ),
    ),
  );
}

/** To the requestor when the owner side decides. */
export function decisionMail(
  requestor: Person,
  decision: 'approved' | 'disapproved' | 'revoked',
  details: { expiresAt?: Date | null; reason?: string },
  facts: MailFacts,
): EventEnvelope[] {
  const record = short(facts.recordName);
  const text = {
    approved: [
      `Your request for "${record}" was approved. You may now download the data from the record's page.`,
      details.expiresAt
        ? `Your access ends on ${details.expiresAt.toISOString().slice(0, 10)}.`
        : 'Your access has no end date; the data owner may withdraw it.',
    ],
    disapproved: [`Your request for "${record}" was denied.`, 'The message thread of the request may say why.'],
    revoked: [`Your access to "${record}" was withdrawn by the data owner.`, `Reason: ${short(details.reason ?? '', 500)}`],
  }[decision];
  const subject = {
    approved: `Your data request for "${facts.recordName}" was approved`,
    disapproved: `Your data request for "${facts.recordName}" was denied`,
    revoked: `Your access to "${facts.recordName}" was withdrawn`,
  }[decision];
  return present([mail(requestor, facts, subject, text, { label: 'Open the request', tab: 'sent' })]);
}

/** To the other party of the thread when a message arrives. */
export function messageMails(recipients: Person[], author: string, message: string, recipientSide: 'sent' | 'received', facts: MailFacts): EventEnvelope[] {
  return present(
    recipients.map((to) =>
      mail(
        to,
        facts,
        `New message about the data request for "${facts.recordName}"`,
        [`${author} wrote about the request for "${short(facts.recordName)}":`, short(message, 1_000)],
        { label: 'Read the thread', tab: recipientSide },
      ),
    ),
  );
}
