import { ActionIcon, Button, Chip, CloseButton, Group, Paper, Text, TextInput } from '@mantine/core';
import { IconCornerDownRight, IconRobot, IconSend } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { canPostAsStreamer, type Channel } from '@greenroom/contracts/api/channels';
import { CHAT_MESSAGE_MAX, sendChatBodySchema } from '@greenroom/contracts/api/chat';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import type { ChatMessage } from '@greenroom/contracts/api/events';
import { providers } from '@greenroom/contracts/providers';
import { ProviderIcon } from '../../../components/provider-icon';
import { serverFieldErrors, useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifyError } from '../../../lib/notify';
import { useSendChatMessage } from '../api/send-chat-message';

interface ChatComposerProps {
  channel: Pick<Channel, 'id' | 'access_level' | 'editors_post_as_streamer'>;
  channelProviders: ChannelProvider[];
  replyTo: ChatMessage | null;
  onCancelReply: () => void;
}

const composerSchema = z.object({ text: sendChatBodySchema.shape.text });

function targetLabel(p: ChannelProvider): string {
  return `${providers[p.provider].name} · ${p.provider_channel_name}`;
}

/** Whether "as bot" can go out on this connection: its own bot or the system bot, or Kick's bot for the app. */
export function hasBotAccount(p: ChannelProvider): boolean {
  if (p.bot_provider) return !p.bot_provider.scope_needed;
  return p.provider === 'kick';
}

/**
 * Sends a message to one or all connected platforms that can write chat, or replies to a message (platforms
 * with chatReplyMessage). Admins and the Owner (and Editors the Owner allowed) choose the streamer's account or
 * the bot; everyone else sends as the bot, so platforms without a bot account are left out and named. Each
 * platform that refuses gets its own toast.
 */
export function ChatComposer({ channel, channelProviders, replyTo, onCancelReply }: ChatComposerProps) {
  const asStreamerAllowed = canPostAsStreamer(channel.access_level, channel.editors_post_as_streamer);
  const connected = useMemo(() => channelProviders.filter((p) => providers[p.provider].chatWrite && !p.scope_needed), [channelProviders]);
  const writable = useMemo(() => (asStreamerAllowed ? connected : connected.filter(hasBotAccount)), [asStreamerAllowed, connected]);
  const botless = asStreamerAllowed ? [] : connected.filter((p) => !hasBotAccount(p));
  const [selected, setSelected] = useState<string[] | null>(null);
  const targets = selected ? selected.filter((id) => writable.some((p) => p.id === id)) : writable.map((p) => p.id);
  const [chosenAs, setAs] = useState<'broadcaster' | 'bot'>('broadcaster');
  const send = useSendChatMessage(channel.id);
  // An empty message is not an error here (the Send button waits for text): the field only says "too long".
  const form = useSchemaForm(composerSchema, { initialValues: { text: '' }, validateInputOnChange: false });
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (replyTo) input.current?.focus();
  }, [replyTo]);

  const effectiveTargets = replyTo ? [replyTo.channel_provider_id] : targets;
  const anyBot = writable.some((p) => effectiveTargets.includes(p.id) && hasBotAccount(p));
  const as = !asStreamerAllowed ? 'bot' : anyBot ? chosenAs : 'broadcaster';
  const text = form.values.text;
  const tooLong = text.length > CHAT_MESSAGE_MAX;
  const canSend = text.trim().length > 0 && !tooLong && effectiveTargets.length > 0 && !form.submitting;

  const submit = useFormSubmit(form, async ({ text: message }) => {
    try {
      const result = await send.mutateAsync({
        text: message,
        channel_provider_ids: effectiveTargets,
        as,
        reply_to: replyTo
          ? { channel_provider_id: replyTo.channel_provider_id, provider_message_id: replyTo.provider_message_id }
          : undefined,
      });
      const failures = result.results.filter((r) => !r.ok);
      for (const failure of failures) {
        notifyError(null, `${providers[failure.provider].name}: ${failure.error ?? 'The platform refused the message'}`);
      }
      if (failures.length < result.results.length || result.results.length === 0) {
        form.reset();
        onCancelReply();
      }
    } catch (error) {
      if (serverFieldErrors(error)) throw error; // shown on the message field
      notifyError(error);
    }
  });
  const onTextChange = (value: string) => {
    form.setFieldValue('text', value);
    if (value.length > CHAT_MESSAGE_MAX) form.validateField('text');
  };

  const botlessNote =
    botless.length > 0 ? (
      <Text size="xs" c="dimmed" px={4}>
        No bot account on {botless.map((p) => providers[p.provider].name).join(', ')}: your messages cannot go there (only Admins and the
        Owner post as the streamer). An Admin can connect a bot account on the Platforms page.
      </Text>
    ) : null;

  if (writable.length === 0) {
    return (
      <Paper withBorder p="sm" radius={0}>
        {botlessNote ?? (
          <Text size="sm" c="dimmed">
            No connected platform can send chat messages. Connect Twitch, YouTube or Kick on the Platforms page to write here.
          </Text>
        )}
      </Paper>
    );
  }

  return (
    <Paper
      component="form"
      onSubmit={(event: FormEvent<HTMLFormElement>) => (canSend ? submit.onSubmit(event) : event.preventDefault())}
      noValidate
      withBorder
      p="xs"
      radius={0}
      aria-label="Send a chat message"
    >
      {replyTo && (
        <Group gap={6} wrap="nowrap" mb={6} px={4}>
          <IconCornerDownRight size={14} aria-hidden />
          <Text size="xs" c="dimmed" truncate style={{ flex: 1 }}>
            Replying to <b>{replyTo.author.display_name}</b> on {providers[replyTo.provider].name}: {replyTo.text}
          </Text>
          <CloseButton size="sm" aria-label="Cancel reply" onClick={onCancelReply} />
        </Group>
      )}
      <Group gap="xs" wrap="wrap" mb={6}>
        {!replyTo && (
          // A toggle per platform (a handful at most): where the message goes is visible at a glance.
          <Chip.Group multiple value={targets} onChange={setSelected}>
            <Group gap={6} role="group" aria-label="Send to" style={{ flex: '1 1 220px', minWidth: 0 }}>
              {writable.map((p) => (
                <Chip
                  key={p.id}
                  value={p.id}
                  size="xs"
                  color={providers[p.provider].color}
                  variant="light"
                  icon={<ProviderIcon provider={p.provider} size={12} />}
                >
                  {targetLabel(p)}
                </Chip>
              ))}
              {targets.length === 0 && (
                <Text size="xs" c="red" role="alert">
                  Pick at least one platform
                </Text>
              )}
            </Group>
          </Chip.Group>
        )}
        {asStreamerAllowed ? (
          <Chip.Group value={as} onChange={(value) => setAs(value === 'bot' ? 'bot' : 'broadcaster')}>
            <Group gap={6} wrap="nowrap" role="radiogroup" aria-label="Send as">
              <Chip value="broadcaster" type="radio" size="xs" variant="light">
                As streamer
              </Chip>
              <Chip value="bot" type="radio" size="xs" variant="light" disabled={!anyBot} icon={<IconRobot size={12} />}>
                As bot
              </Chip>
            </Group>
          </Chip.Group>
        ) : (
          <Group gap={4} wrap="nowrap" role="status" aria-label="Send as">
            <IconRobot size={14} aria-hidden />
            <Text size="xs" c="dimmed">
              Sending as the bot
            </Text>
          </Group>
        )}
      </Group>
      {botlessNote && <div style={{ marginBottom: 6 }}>{botlessNote}</div>}
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <TextInput
          ref={input}
          style={{ flex: 1 }}
          aria-label="Message"
          placeholder={replyTo ? `Reply to ${replyTo.author.display_name}` : 'Send a message'}
          value={text}
          onChange={(e) => onTextChange(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && replyTo) onCancelReply();
          }}
          error={form.errors.text}
          rightSectionWidth={64}
          rightSection={
            <Text size="xs" c={tooLong ? 'red' : 'dimmed'} aria-live="polite">
              {text.length}/{CHAT_MESSAGE_MAX}
            </Text>
          }
        />
        <Button type="submit" loading={form.submitting} disabled={!canSend} leftSection={<IconSend size={16} />} visibleFrom="xs">
          Send
        </Button>
        <ActionIcon type="submit" size="lg" loading={form.submitting} disabled={!canSend} hiddenFrom="xs" aria-label="Send">
          <IconSend size={18} />
        </ActionIcon>
      </Group>
    </Paper>
  );
}
