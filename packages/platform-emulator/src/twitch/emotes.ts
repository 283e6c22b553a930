import { twitchEmotes } from '../emote-names';
import type { ChatMessage } from '../world';

const byName = new Map(twitchEmotes.map((e) => [e.name, e.id]));

/** Twitch emotes found in a message's text, with inclusive character positions. */
export function findTwitchEmotes(text: string): ChatMessage['emotes'] {
  const out: ChatMessage['emotes'] = [];
  let start = 0;
  for (const word of text.split(' ')) {
    const id = word ? byName.get(word) : undefined;
    if (id !== undefined) out.push({ id, name: word, start, end: start + word.length - 1 });
    start += word.length + 1;
  }
  return out;
}
