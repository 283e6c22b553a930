/** Opens a page of the app in its own small window (popouts: chat, activity feed, overlays, viewer cards). */
export function openPopout(path: string, name: string, size: { width: number; height: number }): void {
  window.open(path, name, `popup=yes,width=${size.width},height=${size.height}`);
}

/** Where each channel popout lives. */
export const popoutPaths = {
  /** The staff chat with moderation and the composer (Mod+). */
  chat: (channelId: string) => `/popout/channels/${encodeURIComponent(channelId)}/staff-chat`,
  /** The public, read-only chat for OBS docks and overlays (no sign-in). */
  publicChat: (channelId: string) => `/popout/channels/${encodeURIComponent(channelId)}/chat`,
  activityFeed: (channelId: string) => `/popout/channels/${encodeURIComponent(channelId)}/activity-feed`,
};
