import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Box, Button, Field, HStack, Stack, Text, Textarea } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toApiError } from '../forms/use-form';
import { toaster } from '../shell/toaster';
import { dayAndTime } from './request-rules';
import { sharingApi } from './sharing-api';
import { MESSAGE_FAILED } from './texts';
import { sharingKeys } from '../shared/query-keys';

/** New messages appear without reloading the page: the thread is read again this often while shown. */
export const THREAD_POLL_MS = 4_000;
const MAX_MESSAGE = 5_000;

/** Messages are dated as every other date of the request screens, YYYY-MM-DD, with the time (HH:MM). */
const when = dayAndTime;

/** A request's message thread: both parties write; the newest message is last and stays in view. */
export function MessageThread({ requestId, canWrite }: { requestId: string; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const postMessage = useMutation({ mutationFn: (message: string) => sharingApi.postMessage(requestId, message) });
  const thread = useQuery({
    queryKey: sharingKeys.messages(requestId),
    queryFn: ({ signal }) => sharingApi.messages(requestId, signal),
    refetchInterval: THREAD_POLL_MS,
  });
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const end = useRef<HTMLDivElement>(null);
  const messages = thread.data?.results ?? [];

  // Shown is read: the newest message of the other side marks the thread read up to it, and the
  // side menu's count is read again.
  const newestOther = [...messages].reverse().find((m) => !m.mine)?.id;
  const marked = useRef<string | null>(null);
  const { mutate: markRead } = useMutation({
    mutationFn: (messageId: string) => sharingApi.markRead(requestId, messageId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sharingKeys.attentionAll }),
  });
  useEffect(() => {
    if (!newestOther || marked.current === newestOther) return;
    marked.current = newestOther;
    markRead(newestOther);
  }, [newestOther, markRead]);

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [messages.length]);

  async function send(event: FormEvent) {
    event.preventDefault();
    if (!text.trim() || sending) return;
    setSending(true);
    setError(null);
    try {
      await postMessage.mutateAsync(text.trim());
      setText('');
      await queryClient.invalidateQueries({ queryKey: sharingKeys.messages(requestId) });
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError.fieldError('message') ?? null);
      toaster.create({ type: 'error', title: MESSAGE_FAILED });
    } finally {
      setSending(false);
    }
  }

  return (
    <Stack gap="3" as="section" aria-label="Messages">
      <Text fontWeight="semibold">Messages</Text>
      <Stack gap="2" maxH="72" overflowY="auto" borderWidth="1px" borderRadius="md" p="3" role="log" aria-live="polite" data-testid="message-thread">
        {thread.isPending && <Text color="fg.muted">Loading messages…</Text>}
        {thread.isSuccess && messages.length === 0 && <Text color="fg.muted">No messages yet.</Text>}
        {messages.map((m) => (
          <Box
            key={m.id}
            alignSelf={m.mine ? 'end' : 'start'}
            maxW="85%"
            bg={m.mine ? 'teal.subtle' : 'bg.muted'}
            borderRadius="md"
            px="3"
            py="2"
            data-testid="message"
          >
            <Text fontSize="xs" color="fg.muted">
              {m.user || 'unknown'} · {when(m.created)}
            </Text>
            <Text whiteSpace="pre-wrap" wordBreak="break-word">
              {m.message}
            </Text>
          </Box>
        ))}
        <div ref={end} />
      </Stack>
      {canWrite && (
        <form onSubmit={send} aria-label="Write a message">
          <Stack gap="2">
            <Field.Root invalid={!!error}>
              <Field.Label srOnly>Message</Field.Label>
              <Textarea name="message" placeholder="Write a message…" value={text} maxLength={MAX_MESSAGE} rows={2} onChange={(e) => setText(e.target.value)} />
              <Field.ErrorText>{error}</Field.ErrorText>
            </Field.Root>
            <HStack justify="end">
              <Button type="submit" size="sm" colorPalette="teal" loading={sending} disabled={!text.trim()}>
                Send message
              </Button>
            </HStack>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
