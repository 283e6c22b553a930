import { modals } from '@mantine/modals';
import { IconBan, IconCircleCheck, IconClock, IconCopy, IconId, IconMessageReply, IconTrash } from '@tabler/icons-react';
import { useContextMenu, type ContextMenuItemOptions } from 'mantine-contextmenu';
import { lazy, Suspense, useCallback, useMemo, type MouseEvent as ReactMouseEvent } from 'react';
import type { ChatMessage } from '@greenroom/contracts/api/events';
import { providers, timeoutProblem, type ChannelProviderId } from '@greenroom/contracts/providers';
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
export function moderationItems(subject: ModerationMenuSubject, moderation: Moderation): ContextMenuItemOptions[] {
  const info = providers[subject.provider];
  const target = targetOf(subject);
  const items: ContextMenuItemOptions[] = [];
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

function focusFirstMenuItem(): void {
  // mantine-contextmenu does not move focus; do it so the menu works from the keyboard.
  requestAnimationFrame(() => document.querySelector<HTMLButtonElement>('.mantine-contextmenu .mantine-contextmenu-item-button')?.focus());
}

/**
 * The chat context menu (right-click on a message or author, or the "⋯" button): moderation actions the
 * platform supports (for Mod+ only), reply (platforms with chatReplyMessage), viewer card and copy name.
 */
export function useModerationMenu(options: { moderation: Moderation; canModerate: boolean; onReply?: (message: ChatMessage) => void }) {
  const { showContextMenu } = useContextMenu();
  const { moderation, canModerate, onReply } = options;

  const itemsFor = useCallback(
    (subject: ModerationMenuSubject): ContextMenuItemOptions[] => {
      const items: ContextMenuItemOptions[] = canModerate ? moderationItems(subject, moderation) : [];
      const message = subject.message;
      if (onReply && message && providers[subject.provider].chatReplyMessage && !message.deleted) {
        items.unshift({ key: 'reply', icon: <IconMessageReply size={16} />, title: 'Reply', onClick: () => onReply(message) });
      }
      if (items.length > 0) items.push({ key: 'divider' });
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

  /** Right-click handler. */
  const onContextMenu = useCallback(
    (subject: ModerationMenuSubject, event: ReactMouseEvent) => {
      showContextMenu(itemsFor(subject))(event);
    },
    [itemsFor, showContextMenu],
  );

  /** "⋯" button: opens the same menu under the button and focuses its first item. */
  const openFromButton = useCallback(
    (subject: ModerationMenuSubject, event: ReactMouseEvent<HTMLElement>) => {
      const rect = event.currentTarget.getBoundingClientRect();
      const synthetic = {
        clientX: rect.left,
        clientY: rect.bottom,
        preventDefault: () => event.preventDefault(),
        stopPropagation: () => event.stopPropagation(),
      } as unknown as ReactMouseEvent;
      showContextMenu(itemsFor(subject))(synthetic);
      focusFirstMenuItem();
    },
    [itemsFor, showContextMenu],
  );

  return useMemo(() => ({ onContextMenu, openFromButton, itemsFor }), [onContextMenu, openFromButton, itemsFor]);
}
