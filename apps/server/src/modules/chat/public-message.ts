import type { ChatMessage } from '@greenroom/contracts/api/events';
import type { PublicChatMessage } from '@greenroom/contracts/api/chat';

/** What the public popout may see of a message (contract publicChatMessageSchema): no moderation or staff data. */
export function toPublicMessage(m: ChatMessage): PublicChatMessage {
  return {
    id: m.id,
    provider: m.provider,
    author: m.author,
    text: m.text,
    emotes: m.emotes,
    reply: m.reply,
    sent_at: m.sent_at,
    highlight: m.highlight,
  };
}
