import { Menu } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBan, IconCircleCheck, IconClock, IconCopy, IconId, IconMessageReply, IconTrash } from '@tabler/icons-react';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
} from 'react';
import type { ChatMessage } from '@greenroom/contracts/api/events';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { notifyError, notifySuccess } from '../../../lib/notify';
import type { ModerationTarget } from '../api/ban-viewer';
import type { useModeration } from './use-moderation';

// The forms load when a dialog first opens: the chat page renders without them.
const BanForm = lazy(() => import('../components/ban-form').then((m) => ({ default: m.BanForm })));
const TimeoutForm = lazy(() => import('../components/timeout-form').then((m) => ({ default: m.TimeoutForm })));

export const TIMEOUT_PRESETS: { seconds: number; label: string }[] = [
  { seconds: 60, label: '1 min' },
  { seconds: 600, label: '10 min' },
  { seconds: 3600, label: '1 h' },
  { seconds: 86_400, label: '24 h' },
];

/** Context menu submenu delay (ms). */
export const SUBMENU_DELAY_MS = 500;

export interface ModerationMenuSubject {
  channelId: string;
  provider: ChannelProviderId;
  channelProviderId: string;
  author: { provider_user_id: string; display_name: string };
  /** The message the menu was opened on (absent on a viewer card). */
  message?: ChatMessage;
}

/** One entry of the chat menu: an action, a submenu (`items`) or a divider. */
export interface ChatMenuItem {
  key: string;
  title?: string;
  icon?: ReactNode;
  color?: string;
  onClick?: () => void;
  items?: ChatMenuItem[];
  divider?: boolean;
}

export function viewerCardUrl(channelId: string, provider: string, providerViewerId: string): string {
  return `/popout/channels/${encodeURIComponent(channelId)}/viewers/${encodeURIComponent(provider)}/${encodeURIComponent(providerViewerId)}`;
}

/** Opens the viewer card popout (a new 420×640 window). */
export function openViewerCard(channelId: string, provider: string, providerViewerId: string): void {
  window.open(viewerCardUrl(channelId, provider, providerViewerId), `viewer-${provider}-${providerViewerId}`, 'width=420,height=640');
}

function targetOf(subject: ModerationMenuSubject): ModerationTarget {
  return {
    channelId: subject.channelId,
    provider: subject.provider,
    channelProviderId: subject.channelProviderId,
    providerViewerId: subject.author.provider_user_id,
    displayName: subject.author.display_name,
  };
}

export type Moderation = ReturnType<typeof useModeration>;

/** Moderation actions of a platform (catalogue flags; TikTok has none). */
export function moderationItems(subject: ModerationMenuSubject, moderation: Moderation): ChatMenuItem[] {
  const info = providers[subject.provider];
  const target = targetOf(subject);
  const items: ChatMenuItem[] = [];
  if (info.ban) {
    const max = info.maxTimeoutSeconds ?? Number.POSITIVE_INFINITY;
    items.push({
      key: 'timeout',
      icon: <IconClock size={16} />,
      title: 'Timeout',
      items: [
        ...TIMEOUT_PRESETS.filter((preset) => preset.seconds <= max).map((preset) => ({
          key: `timeout-${preset.seconds}`,
          title: preset.label,
          onClick: () => void moderation.timeout(target, preset.seconds),
        })),
        { key: 'timeout-custom', title: 'Custom…', onClick: () => openTimeoutModal(target, moderation) },
      ],
    });
    items.push({ key: 'ban', icon: <IconBan size={16} />, title: 'Ban', color: 'red', onClick: () => openBanModal(target, moderation) });
  }
  if (info.unban)
    items.push({ key: 'unban', icon: <IconCircleCheck size={16} />, title: 'Unban', onClick: () => void moderation.unban(target) });
  const message = subject.message;
  if (info.deleteMessage && message && !message.deleted) {
    items.push({
      key: 'delete',
      icon: <IconTrash size={16} />,
      title: 'Delete message',
      color: 'red',
      onClick: () => void moderation.deleteMessage(target, message.provider_message_id),
    });
  }
  return items;
}

export function openTimeoutModal(target: ModerationTarget, moderation: Moderation): void {
  const id = `timeout-${target.provider}-${target.providerViewerId}`;
  modals.open({
    modalId: id,
    title: 'Custom timeout',
    children: (
      <Suspense fallback={null}>
        <TimeoutForm
          target={target}
          onSubmit={(seconds, reason) => moderation.timeoutOrThrow(target, seconds, reason)}
          onCancel={() => modals.close(id)}
        />
      </Suspense>
    ),
  });
}

export function openBanModal(target: ModerationTarget, moderation: Moderation): void {
  const id = `ban-${target.provider}-${target.providerViewerId}`;
  modals.open({
    modalId: id,
    title: `Ban ${target.displayName}?`,
    children: (
      <Suspense fallback={null}>
        <BanForm target={target} onSubmit={(reason) => moderation.banOrThrow(target, reason)} onCancel={() => modals.close(id)} />
      </Suspense>
    ),
  });
}

async function copyName(name: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(name);
    notifySuccess(`Copied "${name}"`);
  } catch (error) {
    notifyError(error, 'Could not copy the name to the clipboard');
  }
}

/** An open chat menu: what it is about, where it opened, and the chat line it belongs to. */
export interface OpenChatMenu {
  subject: ModerationMenuSubject;
  items: ChatMenuItem[];
  x: number;
  y: number;
  /** The line (or card) the menu belongs to: the menu closes when it leaves the page. */
  anchor: HTMLElement | null;
  /** Where focus goes back when the menu closes (the "⋯" button that opened it). */
  returnTo: HTMLElement | null;
}

function MenuEntries({ items }: { items: ChatMenuItem[] }) {
  return items.map((item) =>
    item.divider ? (
      <Menu.Divider key={item.key} />
    ) : item.items ? (
      <Menu.Sub key={item.key} openDelay={SUBMENU_DELAY_MS} position="right-start">
        <Menu.Sub.Target>
          <Menu.Sub.Item leftSection={item.icon} color={item.color}>
            {item.title}
          </Menu.Sub.Item>
        </Menu.Sub.Target>
        <Menu.Sub.Dropdown aria-label={item.title}>
          <MenuEntries items={item.items} />
        </Menu.Sub.Dropdown>
      </Menu.Sub>
    ) : (
      <Menu.Item key={item.key} leftSection={item.icon} color={item.color} onClick={item.onClick}>
        {item.title}
      </Menu.Item>
    ),
  );
}

/**
 * The chat menu: a Mantine menu (`menu` / `menuitem` roles, arrow keys, submenus that flip to the other side at the
 * screen edge) opened at the pointer or under the "⋯" button. It closes by itself when its line leaves the page.
 */
export function ChatContextMenu({ open, onClose }: { open: OpenChatMenu | null; onClose: () => void }) {
  useEffect(() => {
    const anchor = open?.anchor;
    if (!anchor) return;
    // A chat line is found again by its message id (the list may render it anew); anything else by the element.
    const messageId = anchor.dataset.messageId;
    const present = () =>
      messageId ? document.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`) !== null : anchor.isConnected;
    let frame = 0;
    const check = () => {
      if (!present()) onClose();
      else frame = requestAnimationFrame(check);
    };
    frame = requestAnimationFrame(check);
    return () => cancelAnimationFrame(frame);
  }, [open, onClose]);

  return (
    <Menu
      opened={open !== null}
      onChange={(opened) => {
        if (!opened) onClose();
      }}
      position="bottom-start"
      offset={2}
      shadow="md"
      width={220}
      withinPortal
      returnFocus={false}
      onClose={() => open?.returnTo?.focus()}
      // Pointer presses outside close it (Escape has its own handling): a key pressed on the "⋯" button that opened
      // it, before focus moved into the menu, must not count as outside.
      clickOutsideEvents={['mousedown', 'touchstart']}
      // The anchor is a point, not an element on screen: it is never "detached", whatever clips it.
      hideDetached={false}
    >
      <Menu.Target>
        <div aria-hidden style={{ position: 'fixed', left: open?.x ?? 0, top: open?.y ?? 0, width: 1, height: 1, pointerEvents: 'none' }} />
      </Menu.Target>
      <Menu.Dropdown aria-label={open ? `Actions for ${open.subject.author.display_name}` : undefined}>
        {open && <MenuEntries items={open.items} />}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The chat context menu (right-click on a message or author, or the "⋯" button): moderation actions the platform
 * supports (for Mod+ only), reply (platforms with chatReplyMessage), viewer card and copy name. `onOpenChange`
 * tells the page when a menu opens or closes (the live list holds still meanwhile).
 */
export function useModerationMenu(options: {
  moderation: Moderation;
  canModerate: boolean;
  onReply?: (message: ChatMessage) => void;
  onOpenChange?: (open: boolean) => void;
}) {
  const { moderation, canModerate, onReply, onOpenChange } = options;
  const [open, setOpen] = useState<OpenChatMenu | null>(null);
  /** The open menu as of the latest event (state lags a render behind). */
  const openRef = useRef<OpenChatMenu | null>(null);
  const onOpenChangeRef = useRef(onOpenChange);
  useEffect(() => {
    onOpenChangeRef.current = onOpenChange;
  });

  const itemsFor = useCallback(
    (subject: ModerationMenuSubject): ChatMenuItem[] => {
      const items: ChatMenuItem[] = canModerate ? moderationItems(subject, moderation) : [];
      const message = subject.message;
      if (onReply && message && providers[subject.provider].chatReplyMessage && !message.deleted) {
        items.unshift({ key: 'reply', icon: <IconMessageReply size={16} />, title: 'Reply', onClick: () => onReply(message) });
      }
      if (items.length > 0) items.push({ key: 'divider', divider: true });
      items.push(
        {
          key: 'viewer-card',
          icon: <IconId size={16} />,
          title: 'Open viewer card',
          onClick: () => openViewerCard(subject.channelId, subject.provider, subject.author.provider_user_id),
        },
        { key: 'copy-name', icon: <IconCopy size={16} />, title: 'Copy name', onClick: () => void copyName(subject.author.display_name) },
      );
      return items;
    },
    [canModerate, moderation, onReply],
  );

  const show = useCallback(
    (subject: ModerationMenuSubject, at: { x: number; y: number }, anchor: HTMLElement | null, returnTo: HTMLElement | null) => {
      const next = { subject, items: itemsFor(subject), ...at, anchor, returnTo };
      const wasOpen = openRef.current !== null;
      openRef.current = next;
      setOpen(next);
      if (!wasOpen) onOpenChangeRef.current?.(true);
    },
    [itemsFor],
  );

  /** Right-click: the menu opens at the pointer instead of the browser's own. */
  const onContextMenu = useCallback(
    (subject: ModerationMenuSubject, event: ReactMouseEvent<HTMLElement>) => {
      event.preventDefault();
      const anchor = event.currentTarget.closest<HTMLElement>('[data-message-id]') ?? event.currentTarget;
      show(subject, { x: event.clientX, y: event.clientY }, anchor, null);
    },
    [show],
  );

  /** "⋯" button (or a click on the author): the menu opens under it; focus comes back to it when the menu closes. */
  const openFromButton = useCallback(
    (subject: ModerationMenuSubject, event: ReactMouseEvent<HTMLElement>) => {
      const button = event.currentTarget;
      const rect = button.getBoundingClientRect();
      const anchor = button.closest<HTMLElement>('[data-message-id]') ?? button;
      show(subject, { x: rect.left, y: rect.bottom }, anchor, button);
    },
    [show],
  );

  const close = useCallback(() => {
    if (!openRef.current) return;
    openRef.current = null;
    setOpen(null);
    onOpenChangeRef.current?.(false);
  }, []);

  const handlers = useMemo(() => ({ onContextMenu, openFromButton, itemsFor, close }), [onContextMenu, openFromButton, itemsFor, close]);
  return { ...handlers, menu: <ChatContextMenu open={open} onClose={close} /> };
}
