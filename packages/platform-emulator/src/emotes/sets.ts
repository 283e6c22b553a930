/** Deterministic 7TV and BetterTTV emote sets derived from emote names and channel ids. */
import { createHash } from 'node:crypto';
import { bttvEmoteNames, bttvGlobalNames, sevenTvEmoteNames, sevenTvGlobalNames } from '../emote-names';

/** A 24-hex id (the ObjectId shape both services use), stable for the same input. */
export function hexId(input: string): string {
  return createHash('sha1').update(input).digest('hex').slice(0, 24);
}

const animatedNames = new Set(['catJAM', 'pepeD', 'SourPls', 'ppOverheat', 'PepeLaugh']);

export interface EmoteDef {
  id: string;
  name: string;
  animated: boolean;
}

export function sevenTvEmote(name: string): EmoteDef {
  return { id: hexId(`7tv:emote:${name}`), name, animated: animatedNames.has(name) };
}

export function bttvEmote(name: string): EmoteDef {
  return { id: hexId(`bttv:emote:${name}`), name, animated: animatedNames.has(name) };
}

export const sevenTvChannelDefault: readonly string[] = sevenTvEmoteNames.filter((n) => !sevenTvGlobalNames.includes(n));
export const bttvChannelDefault: readonly string[] = bttvEmoteNames.filter((n) => !bttvGlobalNames.includes(n));
export { bttvGlobalNames, sevenTvGlobalNames };
