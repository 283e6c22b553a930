/**
 * Close codes of the product's live websockets when the caller's access ends while the socket is
 * open. The web app explains each and does not reconnect.
 */
export const LiveCloseCode = {
  /** The session ended (signed out, expired) or the account was deleted: sign in again. */
  SESSION_ENDED: 4401,
  /** The member was removed from the channel or their level no longer allows this. */
  ACCESS_LOST: 4403,
  /** The channel was deleted. */
  CHANNEL_DELETED: 4404,
} as const;
export type LiveCloseCodeValue = (typeof LiveCloseCode)[keyof typeof LiveCloseCode];

export const liveCloseMessages: Record<LiveCloseCodeValue, string> = {
  [LiveCloseCode.SESSION_ENDED]: 'Your session has ended. Sign in again to continue.',
  [LiveCloseCode.ACCESS_LOST]: 'You no longer have access to this in this channel.',
  [LiveCloseCode.CHANNEL_DELETED]: 'This channel has been deleted.',
};

export function isAccessCloseCode(code: number): code is LiveCloseCodeValue {
  return code === LiveCloseCode.SESSION_ENDED || code === LiveCloseCode.ACCESS_LOST || code === LiveCloseCode.CHANNEL_DELETED;
}
