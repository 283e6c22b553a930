import { IconCrown, IconDiamond, IconShieldCheck, IconStar } from '@tabler/icons-react';
import { memo, useEffect, useMemo, useState, type CSSProperties } from 'react';
import type { PublicChatMessage } from '@greenroom/contracts/api/chat';
import type { ChatBoxSettings } from '@greenroom/contracts/api/widgets';
import { providers } from '@greenroom/contracts/providers';
import { ChatMessageBody } from '../../../components/chat-message-body';
import { ProviderIcon } from '../../../components/provider-icon';
import { authorColor } from '../../../lib/chat-colors';
import { segmentMessage } from '../../../lib/chat-segments';
import type { WidgetConnection } from '../hooks/use-widget-connection';
import classes from './widgets.module.css';

/** Whether the chat box shows a message under its settings (platforms, commands, hidden bots). */
export function chatBoxShows(settings: ChatBoxSettings, message: PublicChatMessage): boolean {
  if (settings.providers.length > 0 && !settings.providers.includes(message.provider)) return false;
  if (settings.hide_commands && message.text.trimStart().startsWith('!')) return false;
  const login = message.author.login.toLowerCase();
  return !settings.hidden_users.some((u) => u === login || u === message.author.display_name.toLowerCase());
}

function RoleBadges({ message, size }: { message: PublicChatMessage; size: number }) {
  const r = message.author.roles;
  return (
    <>
      {r.broadcaster && <IconCrown size={size} color="#f59f00" aria-label="Broadcaster" className={classes.chatIcon} />}
      {r.moderator && <IconShieldCheck size={size} color="#40c057" aria-label="Moderator" className={classes.chatIcon} />}
      {r.vip && <IconDiamond size={size} color="#e64980" aria-label="VIP" className={classes.chatIcon} />}
      {(r.subscriber || r.member) && <IconStar size={size} color="#7950f2" aria-label="Subscriber" className={classes.chatIcon} />}
    </>
  );
}

const ChatLine = memo(function ChatLine({ message, settings }: { message: PublicChatMessage; settings: ChatBoxSettings }) {
  const segments = useMemo(() => segmentMessage(message.text, message.emotes), [message.text, message.emotes]);
  const info = providers[message.provider];
  const icon = Math.round(settings.font_size * 1.05);
  const style = { '--fade-after': `${settings.fade_after_seconds}s` } as CSSProperties;
  return (
    <div
      className={classes.chatLine}
      data-provider={message.provider}
      data-fade={settings.fade_after_seconds > 0 || undefined}
      style={style}
    >
      {settings.show_platform_icons && (
        <span className={classes.chatIcon} style={{ color: `var(--mantine-color-${info.color}-5)` }} title={info.name}>
          <ProviderIcon provider={message.provider} size={icon} />
        </span>
      )}
      {settings.show_badges && <RoleBadges message={message} size={icon} />}
      <span className={classes.chatAuthor} style={{ color: authorColor(message.author.display_name, message.author.color) }}>
        {message.author.display_name}
      </span>
      <span>: </span>
      <ChatMessageBody segments={segments} emoteHeight={Math.round(settings.font_size * 1.75)} />
    </div>
  );
});

/** The channel's chat from every platform, newest at the bottom; deleted messages and banned viewers' lines leave. */
export function ChatBox({ settings, connection }: { settings: ChatBoxSettings; connection: WidgetConnection }) {
  const [messages, setMessages] = useState<PublicChatMessage[]>([]);
  const { snapshot, subscribe } = connection;
  const max = settings.max_messages;

  useEffect(() => {
    if (snapshot) setMessages(snapshot.messages.slice(-100));
  }, [snapshot]);

  useEffect(
    () =>
      subscribe((frame) => {
        if (frame.type === 'chat.message') {
          const m = frame.data;
          setMessages((list) => (list.some((x) => x.id === m.id) ? list : [...list, m].slice(-100)));
        } else if (frame.type === 'chat.removed') {
          const ids = new Set(frame.data.ids);
          setMessages((list) => list.filter((m) => !ids.has(m.id)));
        }
      }),
    [subscribe],
  );

  const shown = useMemo(() => messages.filter((m) => chatBoxShows(settings, m)).slice(-max), [messages, settings, max]);
  return (
    <div className={classes.chat} role="log" aria-label="Chat" aria-live="polite">
      {shown.map((m) => (
        <ChatLine key={m.id} message={m} settings={settings} />
      ))}
    </div>
  );
}
