import { Avatar, Badge, Button, Divider, Group, Paper, Skeleton, Stack, Text, Timeline, Title } from '@mantine/core';
import { IconBan, IconCircleCheck, IconClock, IconMessageOff, IconUserOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { ViewerCard as ViewerCardData } from '@greenroom/contracts/api/chat';
import type { ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import { providers } from '@greenroom/contracts/providers';
import { ChatMessageBody } from '../../../components/chat-message-body';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { ProviderBadge } from '../../../components/provider-badge';
import { authorColor } from '../../../lib/chat-colors';
import { segmentMessage } from '../../../lib/chat-segments';
import { duration, formatDate, formatDateTime } from '../../../lib/format';
import { isApiError } from '../../../lib/api-client';
import { useViewerCard } from '../api/get-viewer-card';
import { useDocumentTitle } from '../../../lib/document-title';

const roleLabels: [keyof ViewerCardData['roles'], string, string][] = [
  ['broadcaster', 'Broadcaster', 'red'],
  ['moderator', 'Moderator', 'green'],
  ['vip', 'VIP', 'pink'],
  ['subscriber', 'Subscriber', 'grape'],
  ['member', 'Member', 'teal'],
  ['verified', 'Verified', 'blue'],
];

const kindLabels: Record<ModerationEvent['kind'], string> = {
  timeout: 'Timed out',
  ban: 'Banned',
  unban: 'Unbanned',
  delete: 'Message deleted',
  clear: 'Chat cleared',
};
const kindIcons: Record<ModerationEvent['kind'], ReactNode> = {
  timeout: <IconClock size={12} />,
  ban: <IconBan size={12} />,
  unban: <IconCircleCheck size={12} />,
  delete: <IconMessageOff size={12} />,
  clear: <IconMessageOff size={12} />,
};

function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );
}

function RecentMessage({ message }: { message: ChatMessage }) {
  return (
    <Text
      size="sm"
      style={{ overflowWrap: 'anywhere', textDecoration: message.deleted ? 'line-through' : undefined }}
      c={message.deleted ? 'dimmed' : undefined}
    >
      <Text span size="xs" c="dimmed" mr={6}>
        {formatDateTime(message.sent_at)}
      </Text>
      <ChatMessageBody segments={segmentMessage(message.text, message.emotes)} emoteHeight={22} />
    </Text>
  );
}

function moderationLine(event: ModerationEvent): string {
  const who = event.moderator?.display_name ?? (event.source === 'platform' ? `${providers[event.provider].name} chat` : 'Greenroom');
  const extra = event.kind === 'timeout' && event.duration_seconds ? ` for ${duration(event.duration_seconds)}` : '';
  return `${kindLabels[event.kind]}${extra} by ${who}`;
}

export interface ViewerCardProps {
  channelId: string;
  provider: string;
  providerViewerId: string;
  /** Moderation controls for this viewer (the app composes them in for Mod+ users). */
  renderActions?: (card: ViewerCardData, refresh: () => void) => ReactNode;
  /** Other features' sections about this viewer, shown after the stats (the app composes them in). */
  renderSections?: (card: ViewerCardData) => ReactNode;
}

/** A viewer's card: name, platform, badges, first seen, message count, ban state, recent messages and moderation history. */
export function ViewerCard({ channelId, provider, providerViewerId, renderActions, renderSections }: ViewerCardProps) {
  const card = useViewerCard(channelId, provider, providerViewerId);
  useDocumentTitle(card.data?.display_name);

  if (card.isPending) {
    return (
      <Stack gap="sm" p="md" aria-busy="true" aria-label="Loading viewer">
        <Group>
          <Skeleton circle h={56} />
          <Stack gap={6} style={{ flex: 1 }}>
            <Skeleton h={18} w="60%" />
            <Skeleton h={14} w="30%" />
          </Stack>
        </Group>
        <Skeleton h={60} />
        <Skeleton h={160} />
      </Stack>
    );
  }
  if (card.isError) {
    if (isApiError(card.error, 404))
      return (
        <PageState
          order={1}
          icon={<IconUserOff size={28} />}
          title="Viewer not found"
          description="This viewer has not been seen in this channel."
        />
      );
    return (
      <ErrorAlert error={card.error} m="md">
        <Button size="xs" variant="light" color="red" mt="sm" onClick={() => void card.refetch()}>
          Try again
        </Button>
      </ErrorAlert>
    );
  }

  const viewer = card.data;
  const timedOutUntil = viewer.timed_out_until && Date.parse(viewer.timed_out_until) > Date.now() ? viewer.timed_out_until : null;
  const refresh = () => void card.refetch();

  return (
    <Stack gap="md" p="md">
      <Group wrap="nowrap" align="center">
        <Avatar src={viewer.avatar_url} size={56} radius="xl" alt="">
          {viewer.display_name.slice(0, 2).toUpperCase()}
        </Avatar>
        <div style={{ minWidth: 0 }}>
          <Title order={1} size="h3" style={{ color: authorColor(viewer.display_name, viewer.color), overflowWrap: 'anywhere' }}>
            {viewer.display_name}
          </Title>
          <Group gap={6} mt={4}>
            <ProviderBadge provider={viewer.provider} label={viewer.login} size="sm" />
            {viewer.banned && (
              <Badge color="red" size="sm" variant="filled">
                Banned
              </Badge>
            )}
            {!viewer.banned && timedOutUntil && (
              <Badge color="orange" size="sm" variant="filled" title={formatDateTime(timedOutUntil)}>
                Timed out
              </Badge>
            )}
          </Group>
        </div>
      </Group>

      {(roleLabels.some(([role]) => viewer.roles[role]) || viewer.badges.length > 0) && (
        <Group gap={6} aria-label="Badges">
          {roleLabels.map(([role, label, color]) =>
            viewer.roles[role] ? (
              <Badge key={role} color={color} variant="light" size="sm" tt="none">
                {label}
              </Badge>
            ) : null,
          )}
          {viewer.badges
            .filter((b) => !roleLabels.some(([, label]) => label.toLowerCase() === b.label.toLowerCase()))
            .map((b) => (
              <Badge key={`${b.set_id}/${b.id}`} color="gray" variant="outline" size="sm" tt="none">
                {b.label}
              </Badge>
            ))}
        </Group>
      )}

      <Paper withBorder p="sm" radius="md">
        <Group grow align="flex-start">
          <Stat label="First seen" value={viewer.first_seen_at ? formatDate(viewer.first_seen_at) : 'Never'} />
          <Stat label="Messages" value={viewer.message_count.toLocaleString('en-US')} />
          <Stat
            label="Status"
            value={viewer.banned ? 'Banned' : timedOutUntil ? `Timed out until ${formatDateTime(timedOutUntil)}` : 'Can chat'}
          />
        </Group>
      </Paper>

      {renderActions?.(viewer, refresh)}

      {renderSections?.(viewer)}

      <Divider label="Recent messages" labelPosition="left" />
      {viewer.recent_messages.length === 0 ? (
        <Text size="sm" c="dimmed">
          No messages in this channel yet.
        </Text>
      ) : (
        <Stack gap={6}>
          {viewer.recent_messages.map((message) => (
            <RecentMessage key={message.id} message={message} />
          ))}
        </Stack>
      )}

      <Divider label="Moderation history" labelPosition="left" />
      {viewer.moderation.length === 0 ? (
        <Text size="sm" c="dimmed">
          No moderation actions.
        </Text>
      ) : (
        <Timeline bulletSize={20} lineWidth={2}>
          {viewer.moderation.map((event) => (
            <Timeline.Item key={event.id} bullet={kindIcons[event.kind]} title={moderationLine(event)}>
              {event.reason && (
                <Text size="xs" c="gray.4">
                  Reason: {event.reason}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {formatDateTime(event.occurred_at)}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}
