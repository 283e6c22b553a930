import type { EncoderFactory } from './fanout-hub';

/** Bus events the staff chat socket relays (ChatSocketMessage minus pong). */
const staffTypes = new Set(['chat.message', 'chat.moderation', 'activity', 'stream.status', 'chat.gap', 'chat.ingest_status']);

/** Staff sockets get the bus event as is: serialised once per event for every socket. */
export const staffEncoder: EncoderFactory = () => (event) => {
  if (!staffTypes.has(event.type)) return null;
  const data = (event as { data?: { provider?: unknown } }).data;
  return { payload: JSON.stringify(event), provider: typeof data?.provider === 'string' ? data.provider : null };
};
