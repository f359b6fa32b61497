import { useEffect, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Badge, Box, Button, DataList, Field, Heading, HStack, Input, Link, RadioGroup, Separator, Stack, Table, Text, Textarea } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import type { ApiError } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { TextField } from '../forms/TextField';
import { toApiError } from '../forms/use-form';
import { toaster } from '../shell/toaster';
import { MessageThread } from './MessageThread';
import {
  day,
  expiryError,
  isEditable,
  requestActions,
  requestDateLine,
  sendHint,
  showsNote,
  shownStatus,
  stated,
  STATUS_COLOURS,
  todayText,
  unansweredCount,
} from './request-rules';
import { grantsDownload, RequestDownload } from './RequestDownload';
import { sharingApi } from './sharing-api';
import {
  APPROVAL_FAILED,
  CONFIRM_APPROVE,
  CONFIRM_CLOSE,
  REQUEST_APPROVED,
  REQUEST_CLOSE_FAILED,
  REQUEST_CLOSED,
  REQUEST_DENIED,
  REQUEST_FAILED,
  REQUEST_SUBMITTED,
  UPDATE_FAILED,
} from './texts';
import type { AccessRequest, Answer, RequestPolicy, RequestUpdate } from './types';

export const REVOKED = 'Access to the data was revoked.';

export function StatusBadge({ request }: { request: Pick<AccessRequest, 'status' | 'expired'> }) {
  const status = shownStatus(request);
  return (
    <Badge colorPalette={STATUS_COLOURS[status]} variant="solid" data-testid="request-status">
      {status}
    </Badge>
  );
}

/** The grant's term as the requestor and the owner side read it. */
function grantTerm(request: AccessRequest): string | null {
  if (request.status === 'approved') {
    if (request.expired) return `Access expired on ${day(request.expires_at)}.`;
    return request.expires_at ? `Access until ${day(request.expires_at)}.` : 'Access without an end date (until revoked).';
  }
  if (request.status === 'revoked') return `Access revoked on ${day(request.revoked_at)}: ${request.revoke_reason ?? ''}`;
  return null;
}

interface RequestPanelProps {
  request: AccessRequest;
  basic: boolean;
  onChanged(request: AccessRequest): void;
  /** The request was closed: it disappears from view. */
  onClosed(): void;
}

/**
 * One request (spec section 2, Requests): the form (purpose, note, the policy's requirements with
 * yes/no answers, Send Request), read-only once sent; for the owner side the requestor's
 * organisation, Approve, Deny and Revoke; the message thread for both.
 */
export function RequestPanel({ request, basic, onChanged, onClosed }: RequestPanelProps) {
  const editable = isEditable(request);
  const actions = requestActions(request);
  const [purpose, setPurpose] = useState(request.purpose);
  const [note, setNote] = useState(request.note);
  const [policies, setPolicies] = useState<RequestPolicy[]>(request.access_policies);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'approve' | 'close' | 'revoke' | null>(null);
  const [expiry, setExpiry] = useState('');
  const [reason, setReason] = useState('');
  const [attempted, setAttempted] = useState(false);
  const reviewed = useRef(false);
  const form = useRef<HTMLDivElement>(null);
  const update = useMutation({ mutationFn: (body: RequestUpdate) => sharingApi.updateRequest(request.id, body) });
  const { mutate: markReviewed } = useMutation({
    mutationFn: (requestId: string) => sharingApi.updateRequest(requestId, { status: 'review' }),
    onSuccess: onChanged,
  });

  // The owner side opening a sent request moves it to review (spec section 4).
  useEffect(() => {
    if (!actions.markReviewed || reviewed.current) return;
    reviewed.current = true;
    markReviewed(request.id);
  }, [actions.markReviewed, request.id, markReviewed]);

  const setAnswer = (policyId: string, index: number, agree: Answer) =>
    setPolicies((current) =>
      current.map((p) => (p.id === policyId ? { ...p, json_content: p.json_content.map((item, i) => (i === index ? { ...item, agree } : item)) } : p)),
    );

  async function change(kind: string, body: RequestUpdate, success: string, failure: string, level: 'info' | 'success' = 'info') {
    setBusy(kind);
    setError(null);
    try {
      const updated = await update.mutateAsync(body);
      toaster.create({ type: level, title: success });
      setConfirm(null);
      if (updated.status === 'closed') onClosed();
      else onChanged(updated);
    } catch (caught) {
      setError(toApiError(caught));
      toaster.create({ type: 'error', title: failure });
    } finally {
      setBusy(null);
    }
  }

  const unanswered = unansweredCount(policies);
  const hint = sendHint(
    unanswered,
    policies.reduce((n, p) => n + p.json_content.length, 0),
  );
  const send = () => {
    if (unanswered > 0) {
      // Send Request says what it waits for; trying anyway takes the user to the first open question.
      setAttempted(true);
      const first = form.current?.querySelector<HTMLElement>('[data-unanswered="true"] input');
      first?.scrollIntoView?.({ block: 'center' });
      first?.focus();
      return;
    }
    void change(
      'send',
      { status: 'sent', purpose: purpose.trim(), note: note.trim(), access_policies: policies.map((p) => ({ id: p.id, json_content: p.json_content })) },
      REQUEST_SUBMITTED,
      REQUEST_FAILED,
    );
  };
  const expiryProblem = expiryError(expiry, todayText());
  const term = grantTerm(request);

  return (
    <Stack gap="5" data-testid="request-panel">
      <Stack gap="1">
        <HStack gap="3" wrap="wrap">
          <Heading as="h2" size="lg">
            {request.record_deleted ? (
              request.record_name || 'A deleted record'
            ) : (
              <Link asChild colorPalette="teal">
                <RouterLink to={`/records/${request.record}`}>{request.record_name || request.record}</RouterLink>
              </Link>
            )}
          </Heading>
          <StatusBadge request={request} />
        </HStack>
        <Text fontSize="sm" color="fg.muted" data-testid="request-date">
          {requestDateLine(request)}
        </Text>
        {term && (
          <Text fontSize="sm" fontWeight="medium" data-testid="grant-term">
            {term}
          </Text>
        )}
      </Stack>

      {request.role === 'reviewer' && (
        <DataList.Root orientation="horizontal" size="sm" aria-label="Requestor">
          <DataList.Item>
            <DataList.ItemLabel>Requestor</DataList.ItemLabel>
            <DataList.ItemValue>{request.requestor || 'N/A'}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Organisation</DataList.ItemLabel>
            <DataList.ItemValue data-testid="requestor-org-name">{request.requestor_org_name || 'N/A'}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>About the organisation</DataList.ItemLabel>
            <DataList.ItemValue data-testid="requestor-org-desc">{stated(request.requestor_org_desc)}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      )}

      {grantsDownload(request) && <RequestDownload request={request} />}

      <Stack gap="4" as="section" aria-label="Request form" ref={form}>
        {editable ? (
          <TextField label="Purpose" name="purpose" multiline value={purpose} onChange={setPurpose} error={error?.fieldError('purpose')} />
        ) : (
          <ReadOnly label="Purpose" value={stated(request.purpose)} />
        )}
        {showsNote(request, basic) &&
          (editable ? (
            <TextField label="Note" name="note" multiline value={note} onChange={setNote} error={error?.fieldError('note')} />
          ) : (
            <ReadOnly label="Note" value={stated(request.note)} />
          ))}
        {policies.map((policy) => (
          <Stack key={policy.id} gap="2">
            <Text fontWeight="semibold">Access policy: {policy.name}</Text>
            <Table.Root size="sm" aria-label={`Requirements of ${policy.name}`}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Topic</Table.ColumnHeader>
                  <Table.ColumnHeader>Requirement</Table.ColumnHeader>
                  <Table.ColumnHeader>Answer</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {policy.json_content.map((item, index) => (
                  <Table.Row key={index} data-unanswered={editable && !item.agree ? 'true' : undefined}>
                    <Table.Cell>{item.object}</Table.Cell>
                    <Table.Cell>{item.requirement}</Table.Cell>
                    <Table.Cell>
                      {editable ? (
                        <Stack gap="1">
                          <RadioGroup.Root
                            size="sm"
                            value={item.agree || null}
                            onValueChange={(d) => (d.value === 'yes' || d.value === 'no') && setAnswer(policy.id, index, d.value)}
                            aria-label={`${item.object}: ${item.requirement}`}
                          >
                            <HStack gap="3">
                              {(['yes', 'no'] as const).map((value) => (
                                <RadioGroup.Item key={value} value={value}>
                                  <RadioGroup.ItemHiddenInput />
                                  <RadioGroup.ItemIndicator />
                                  <RadioGroup.ItemText>{value === 'yes' ? 'Yes' : 'No'}</RadioGroup.ItemText>
                                </RadioGroup.Item>
                              ))}
                            </HStack>
                          </RadioGroup.Root>
                          {attempted && !item.agree && (
                            <Text fontSize="xs" color="fg.error">
                              Choose Yes or No.
                            </Text>
                          )}
                        </Stack>
                      ) : (
                        <Text data-testid="policy-answer" color={item.expected && item.agree && item.agree !== item.expected ? 'fg.error' : undefined}>
                          {item.agree === 'yes' ? 'Yes' : item.agree === 'no' ? 'No' : 'N/A'}
                          {request.role === 'reviewer' && item.expected && item.agree && item.agree !== item.expected
                            ? ' (the policy asks for ' + (item.expected === 'yes' ? 'Yes' : 'No') + ')'
                            : ''}
                        </Text>
                      )}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Stack>
        ))}
      </Stack>

      <ServerErrorAlert error={error} shownFields={['purpose', 'note']} />

      <HStack gap="2" wrap="wrap">
        {actions.send && (
          <>
            <Button
              colorPalette="teal"
              loading={busy === 'send'}
              aria-disabled={hint ? true : undefined}
              aria-describedby={hint ? 'send-hint' : undefined}
              onClick={send}
            >
              Send Request
            </Button>
            {hint && (
              <Text id="send-hint" fontSize="sm" color={attempted ? 'fg.error' : 'fg.muted'} data-testid="send-hint">
                {hint}
              </Text>
            )}
          </>
        )}
        {actions.approve && (
          <Button colorPalette="green" onClick={() => setConfirm('approve')}>
            Approve
          </Button>
        )}
        {actions.deny && (
          <Button
            colorPalette="red"
            variant="outline"
            loading={busy === 'deny'}
            onClick={() => change('deny', { status: 'disapproved' }, REQUEST_DENIED, UPDATE_FAILED)}
          >
            Deny
          </Button>
        )}
        {actions.revoke && (
          <Button colorPalette="red" variant="outline" onClick={() => setConfirm('revoke')}>
            Revoke access
          </Button>
        )}
      </HStack>

      {request.status !== 'new' && <MessageThread requestId={request.id} canWrite={actions.message} />}

      {actions.close && (
        <Stack gap="2" as="section" aria-label="Withdraw request">
          <Separator />
          <HStack gap="3" wrap="wrap" justify="space-between">
            <Text fontSize="sm" color="fg.muted">
              {request.status === 'approved'
                ? 'No longer need the data? Withdrawing ends your access for good.'
                : 'Changed your mind? Withdrawing ends this request for good.'}
            </Text>
            <Button variant="outline" colorPalette="red" size="sm" onClick={() => setConfirm('close')}>
              Withdraw request
            </Button>
          </HStack>
        </Stack>
      )}

      <ConfirmDialog
        open={confirm === 'approve'}
        title="Approve request"
        message={CONFIRM_APPROVE}
        confirmLabel="Approve"
        confirmPalette="green"
        busy={busy === 'approve'}
        onConfirm={() => {
          if (expiryProblem) return;
          void change('approve', { status: 'approved', expires_at: expiry.trim() || null }, REQUEST_APPROVED, APPROVAL_FAILED);
        }}
        onCancel={() => setConfirm(null)}
      >
        <Field.Root invalid={!!expiryProblem || !!error?.fieldError('expires_at')}>
          <Field.Label>Access expires on (optional)</Field.Label>
          <Input
            name="expires_at"
            placeholder="YYYY-MM-DD"
            inputMode="numeric"
            autoComplete="off"
            maxLength={10}
            value={expiry}
            onChange={(e) => setExpiry(e.target.value)}
          />
          <Field.HelperText>
            The day as YYYY-MM-DD, e.g. 2027-01-31. After this day the requestor can no longer download the data; leave it empty for no end date.
          </Field.HelperText>
          <Field.ErrorText>{expiryProblem ?? error?.fieldError('expires_at')}</Field.ErrorText>
        </Field.Root>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'close'}
        title="Withdraw request"
        message={CONFIRM_CLOSE}
        confirmLabel="Withdraw request"
        busy={busy === 'close'}
        onConfirm={() => change('close', { status: 'closed' }, REQUEST_CLOSED, REQUEST_CLOSE_FAILED)}
        onCancel={() => setConfirm(null)}
      />
      <ConfirmDialog
        open={confirm === 'revoke'}
        title="Revoke access"
        message="The requestor can no longer download the data, and download links made before stop working. Your reason is added to the message thread."
        confirmLabel="Revoke access"
        busy={busy === 'revoke'}
        onConfirm={() => change('revoke', { status: 'revoked', reason: reason.trim() }, REVOKED, UPDATE_FAILED)}
        onCancel={() => setConfirm(null)}
      >
        <Field.Root required invalid={!!error?.fieldError('reason')}>
          <Field.Label>Reason</Field.Label>
          <Textarea name="reason" value={reason} onChange={(e) => setReason(e.target.value)} rows={3} />
          <Field.ErrorText>{error?.fieldError('reason')}</Field.ErrorText>
        </Field.Root>
      </ConfirmDialog>
    </Stack>
  );
}

function ReadOnly({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Text fontSize="sm" fontWeight="medium">
        {label}
      </Text>
      <Text whiteSpace="pre-wrap" data-testid={`request-${label.toLowerCase()}`}>
        {value}
      </Text>
    </Box>
  );
}
