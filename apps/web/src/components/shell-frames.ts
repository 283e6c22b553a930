/**
 * The sizes of the signed-in shells, in one place: the shells use them, and so does the skeleton drawn while a page's
 * code loads (components/app-shell-skeleton.tsx), so the frame does not move when the page arrives.
 */
export interface ShellFrame {
  headerHeight: number;
  /** The navbar's width, or 0 when the shell has none. */
  navbarWidth: number;
}

export const SHELL_FRAMES = {
  channel: { headerHeight: 45, navbarWidth: 250 },
  admin: { headerHeight: 50, navbarWidth: 250 },
  /** SimpleShell: the channel list, welcome, create channel. */
  home: { headerHeight: 50, navbarWidth: 0 },
} satisfies Record<string, ShellFrame>;

/** Where the channel shell remembers whether the user hid its navbar on desktop (JSON `true`/`false`). */
export const CHANNEL_NAVBAR_STORAGE_KEY = 'greenroom.channel_navbar_opened';
