import { ActionIcon, Badge, Text, UnstyledButton } from '@mantine/core';
import {
  IconBrandYoutube,
  IconCrown,
  IconDiamond,
  IconDots,
  IconRosetteDiscountCheck,
  IconStar,
  IconSword,
  IconCornerDownRight,
} from '@tabler/icons-react';
import { memo, useMemo, type MouseEvent } from 'react';
import type { ChatMessage, ChatRoles } from '@greenroom/contracts/api/events';
import { providers } from '@greenroom/contracts/providers';
import { ChatMessageBody } from '../../../components/chat-message-body';
import { ProviderIcon } from '../../../components/provider-icon';
import { authorColor } from '../../../lib/chat-colors';
import { mentionsAny, segmentMessage } from '../../../lib/chat-segments';
import { formatTime } from '../../../lib/format';
import type { MessageEntry } from '../hooks/message-buffer';
import classes from './chat-message-row.module.css';

const roleBadges: { role: keyof ChatRoles; label: string; icon: typeof IconStar; color: string }[] = [
  { role: 'broadcaster', label: 'Broadcaster', icon: IconCrown, color: 'var(--mantine-color-red-5)' },
  { role: 'moderator', label: 'Moderator', icon: IconSword, color: 'var(--mantine-color-green-5)' },
  { role: 'vip', label: 'VIP', icon: IconDiamond, color: 'var(--mantine-color-pink-4)' },
  { role: 'subscriber', label: 'Subscriber', icon: IconStar, color: 'var(--mantine-color-grape-4)' },
  { role: 'member', label: 'Member', icon: IconBrandYoutube, color: 'var(--mantine-color-teal-4)' },
  { role: 'verified', label: 'Verified', icon: IconRosetteDiscountCheck, color: 'var(--mantine-color-blue-4)' },
];

const removedLabels: Record<NonNullable<MessageEntry['removed']>, string> = {
  deleted: 'message deleted',
  timeout: 'user timed out',
  ban: 'user banned',
  clear: 'chat cleared',
  filtered: 'removed by filter',
};

export type MenuTarget = 'message' | 'author' | 'button';

interface ChatMessageRowProps {
  entry: MessageEntry;
  highlightLogins: ReadonlySet<string>;
  revealed: boolean;
  onReveal: (id: string) => void;
  onMenu: (message: ChatMessage, target: MenuTarget, event: MouseEvent<HTMLElement>) => void;
  /** Staff may reveal removed messages. */
  canReveal: boolean;
}

/** One chat line: platform, time, badges, author (in their colour), reply parent and the message body. */
export const ChatMessageRow = memo(function ChatMessageRow({
  entry,
  highlightLogins,
  revealed,
  onReveal,
  onMenu,
  canReveal,
}: ChatMessageRowProps) {
  const { message, removed } = entry;
  const info = providers[message.provider];
  const segments = useMemo(
    () => segmentMessage(message.text, message.emotes, highlightLogins),
    [message.text, message.emotes, highlightLogins],
  );
  const mentioned = useMemo(
    () => mentionsAny(message.mentions, message.text, highlightLogins),
    [message.mentions, message.text, highlightLogins],
  );
  const collapsed = removed !== null && !revealed;
  const color = authorColor(message.author.display_name, message.author.color);

  return (
    <div
      className={classes.row}
      data-provider={message.provider}
      data-removed={removed ?? undefined}
      data-mentioned={mentioned || undefined}
      data-message-id={message.id}
      onContextMenu={(event) => onMenu(message, 'message', event)}
    >
      {message.reply && (
        <Text size="xs" c="dimmed" className={classes.reply} truncate>
          <IconCornerDownRight size={12} aria-hidden /> Replying to <b>@{message.reply.author_display_name}</b>: {message.reply.text}
        </Text>
      )}
      <div className={classes.line}>
        <span className={classes.meta}>
          <span className={classes.platform} style={{ color: `var(--mantine-color-${info.color}-5)` }} title={info.name}>
            <ProviderIcon provider={message.provider} size={16} />
            <span className={classes.srOnly}>{info.name}</span>
          </span>
          <time className={classes.time} dateTime={message.sent_at}>
            {formatTime(message.sent_at)}
          </time>
          {roleBadges.map(({ role, label, icon: Icon, color: badgeColor }) =>
            message.author.roles[role] ? (
              <span key={role} className={classes.badge} title={label} aria-label={label} role="img">
                <Icon size={14} color={badgeColor} aria-hidden />
              </span>
            ) : null,
          )}
          <UnstyledButton
            className={classes.author}
            style={{ color }}
            onClick={(event) => onMenu(message, 'author', event)}
            onContextMenu={(event: MouseEvent<HTMLButtonElement>) => {
              event.stopPropagation();
              onMenu(message, 'author', event);
            }}
          >
            {message.author.display_name}
          </UnstyledButton>
          <span className={classes.colon}>:</span>
        </span>
        {message.highlight && (
          <Badge size="sm" color="yellow" variant="light" tt="none" mr={4}>
            {message.highlight}
          </Badge>
        )}
        {collapsed ? (
          <span className={classes.removed}>
            &lt;{removedLabels[removed]}
            {removed === 'filtered' && message.filtered?.reason ? `: ${message.filtered.reason}` : ''}&gt;
            {canReveal && (
              <UnstyledButton className={classes.reveal} onClick={() => onReveal(message.id)}>
                Show
              </UnstyledButton>
            )}
          </span>
        ) : (
          <span className={removed ? classes.struck : classes.body}>
            <ChatMessageBody segments={segments} />
          </span>
        )}
      </div>
      <ActionIcon
        className={classes.more}
        variant="subtle"
        color="gray"
        size="sm"
        aria-label={`Actions for ${message.author.display_name}'s message`}
        onClick={(event) => onMenu(message, 'button', event)}
      >
        <IconDots size={16} />
      </ActionIcon>
    </div>
  );
});
