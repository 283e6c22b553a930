import { ModalsProvider } from '@mantine/modals';
import { ContextMenuProvider } from 'mantine-contextmenu';
import type { ReactNode } from 'react';
import 'mantine-contextmenu/styles.css';

/** Context menu submenu delay. */
export const CONTEXT_MENU_SUBMENU_DELAY_MS = 500;

/** Modals and context menus: every signed-in page has them; public pages do not load them. */
export function SignedInProviders({ children }: { children: ReactNode }) {
  return (
    <ModalsProvider>
      <ContextMenuProvider submenuDelay={CONTEXT_MENU_SUBMENU_DELAY_MS}>{children}</ContextMenuProvider>
    </ModalsProvider>
  );
}
