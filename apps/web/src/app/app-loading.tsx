import { AppShellSkeleton } from '../components/app-shell-skeleton';
import { FullHeightLoader } from '../components/full-height-loader';
import { CHANNEL_NAVBAR_STORAGE_KEY, SHELL_FRAMES, type ShellFrame } from '../components/shell-frames';
import { hasAccessToken } from '../lib/auth-token';

/** Pages outside the signed-in shells: they load with a plain spinner. */
const OUTSIDE_SHELLS =
  /^\/(?:sign-in|oauth|popout|widget|watch|user-provider-connected|channel-provider-connected)(?:\/|$)|^\/channels\/[^/]+\/register\//;

function channelNavbarHidden(): boolean {
  try {
    return window.localStorage.getItem(CHANNEL_NAVBAR_STORAGE_KEY) === 'false';
  } catch {
    return false;
  }
}

/** The shell the signed-in page at `pathname` appears in, or null for a page outside them. */
export function shellFrameFor(pathname: string, navbarHidden = false): ShellFrame | null {
  if (OUTSIDE_SHELLS.test(pathname)) return null;
  if (/^\/admin(?:\/|$)/.test(pathname)) return SHELL_FRAMES.admin;
  if (/^\/channels\/[^/]+/.test(pathname)) return navbarHidden ? { ...SHELL_FRAMES.channel, navbarWidth: 0 } : SHELL_FRAMES.channel;
  return SHELL_FRAMES.home;
}

/**
 * What shows while the first page's code (and, signed in, the account) loads: the frame of the shell the page will
 * appear in, so the first paint already is the page's header and navigation; a spinner for pages outside the shells
 * and for visitors without a session (they are on their way to the sign-in page).
 */
export function AppLoading({ label = 'Loading' }: { label?: string }) {
  const frame = hasAccessToken() ? shellFrameFor(window.location.pathname, channelNavbarHidden()) : null;
  return frame ? <AppShellSkeleton frame={frame} label={label} /> : <FullHeightLoader label={label} />;
}
