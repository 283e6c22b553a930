import { Menu } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import type { ModerationMenuSubject } from '../hooks/use-moderation-menu';

/** Context menu submenu delay (ms). */
export const SUBMENU_DELAY_MS = 500;

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
