/**
 * Emote names shared by the crowd simulator (which types them into chat) and the 7TV/BetterTTV
 * plugin (which serves them), so that codes in simulated chat resolve to real emote sets.
 */

/** Twitch global emotes with their real ids (positions are reported in EventSub fragments). */
export const twitchEmotes: readonly { id: string; name: string }[] = [
  { id: '25', name: 'Kappa' },
  { id: '354', name: '4Head' },
  { id: '41', name: 'Kreygasm' },
  { id: '86', name: 'BibleThump' },
  { id: '1902', name: 'Keepo' },
  { id: '425618', name: 'LUL' },
  { id: '305954156', name: 'PogChamp' },
  { id: '58765', name: 'NotLikeThis' },
  { id: '28087', name: 'WutFace' },
  { id: '81273', name: 'KomodoHype' },
  { id: '112291', name: 'HeyGuys' },
  { id: '555555584', name: '<3' },
  { id: '1', name: ':)' },
];

/** 7TV emote codes (channel sets and the global set). */
export const sevenTvEmoteNames: readonly string[] = [
  'catJAM',
  'OMEGALUL',
  'KEKW',
  'monkaS',
  'PepeLaugh',
  'Pog',
  'peepoHappy',
  'Clap',
  'EZ',
  'Sadge',
  'pepeD',
  'forsenCD',
];

/** BetterTTV emote codes (channel, shared and global sets). */
export const bttvEmoteNames: readonly string[] = [
  'PepeHands',
  'monkaW',
  'FeelsGoodMan',
  'FeelsBadMan',
  'LULW',
  'POGGERS',
  'widepeepoHappy',
  'Kappa123',
  'SourPls',
  'ppOverheat',
];

/** Which of the above are global (served by every channel) rather than channel emotes. */
export const sevenTvGlobalNames: readonly string[] = ['EZ', 'Clap', 'forsenCD'];
export const bttvGlobalNames: readonly string[] = ['FeelsGoodMan', 'FeelsBadMan', 'SourPls'];
