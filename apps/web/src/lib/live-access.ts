import type { LiveCloseCodeValue } from '@greenroom/contracts/api/live';

/**
 * What the app does when a live socket closes because access to a channel ended (the member was removed, the
 * channel deleted). Kept apart from live-socket.ts so the app's entry installs it without loading the
 * websocket library.
 */
type AccessLostHandler = (code: LiveCloseCodeValue) => void;
let onAccessLost: AccessLostHandler = () => {};

/** The app installs it once: refresh what the channel pages show. A session that ended goes to sign-in like any 401. */
export function setLiveAccessLostHandler(handler: AccessLostHandler): void {
  onAccessLost = handler;
}

/** A live socket was closed because access to its channel ended. */
export function liveAccessLost(code: LiveCloseCodeValue): void {
  onAccessLost(code);
}
