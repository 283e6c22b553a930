import { modals } from '@mantine/modals';
import { IconBan, IconCircleCheck, IconClock, IconCopy, IconId, IconMessageReply, IconTrash } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import type { ChatMessage } from '@greenroom/contracts/api/events';
import { providers, timeoutProblem, type ChannelProviderId } from '@greenroom/contracts/providers';
import { notifyError, notifySuccess } from '../../../lib/notify';
import type { ModerationTarget } from '../api/ban-viewer';
import type { useModeration } from './use-moderation';
import type { ChatMenuItem, OpenChatMenu } from '../components/chat-context-menu';

// The menu and the forms load when first opened: the chat page renders without them.
const ChatContextMenu = lazy(() => import('../components/chat-context-menu').then((m) => ({ default: m.ChatContextMenu })));
const BanForm = lazy(() => import('../components/ban-form').then((m) => ({ default: m.BanForm })));
const TimeoutForm = lazy(() => import('../components/timeout-form').then((m) => ({ default: m.TimeoutForm })));

export const TIMEOUT_PRESETS: { seconds: number; label: string }[] = [
  { seconds: 60, label: '1 min' },
  { seconds: 600, label: '10 min' },
  { seconds: 3600, label: '1 h' },
  { seconds: 86_400, label: '24 h' },
];

export interface ModerationMenuSubject {
  channelId: string;
  provider: ChannelProviderId;
  channelProviderId: string;
  author: { provider_user_id: string; display_name: string };
  /** The message the menu was opened on (absent on a viewer card). */
  message?: ChatMessage;
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
    items.push({
      key: 'timeout',
      icon: <IconClock size={16} />,
      title: 'Timeout',
      items: [
        ...TIMEOUT_PRESETS.filter((preset) => timeoutProblem(subject.provider, preset.seconds) === null).map((preset) => ({
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
  // Once loaded, the menu stays mounted: it closes with its own transition and gives focus back.
  const [needed, setNeeded] = useState(false);
  if (open && !needed) setNeeded(true);
  const menu = needed ? (
    <Suspense fallback={null}>
      <ChatContextMenu open={open} onClose={close} />
    </Suspense>
  ) : null;
  return { ...handlers, menu };
}
