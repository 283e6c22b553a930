/** Word material for simulated chat. */
export const plainMessages: readonly string[] = [
  'hello chat',
  'hi everyone',
  'what game is this?',
  'lets gooo',
  'that was close',
  'gg',
  'no way',
  'first time here, love the vibe',
  'how long have you been streaming today?',
  'lol',
  'this song slaps',
  'can you show the settings?',
  'good luck on the next run',
  'im so early',
  'back from lunch, what did i miss',
  'nice play',
  'unlucky',
  'W stream',
  'that boss is brutal',
  'hydrate check',
  'greetings from germany',
  'what keyboard is that?',
  'you got this',
  'so clean',
  'chat is wild today',
  'one more game!',
  'is this the new update?',
  'clip it',
  'bro really did that',
  'the comeback is real',
];

export const capsMessages: readonly string[] = [
  'LETS GOOOOO',
  'NO SHOT',
  'WHAT WAS THAT',
  'CLIP IT CLIP IT',
  'HUGE',
  'POGGERS POGGERS',
  'GG EZ',
  'YOOOOOO',
];

export const commands: readonly string[] = [
  '!uptime',
  '!discord',
  '!socials',
  '!points',
  '!followage',
  '!lurk',
  '!commands',
  '!sr never gonna give you up',
  '!so @',
  '!hug @',
  '!title',
  '!game',
];

export const links: readonly string[] = [
  'https://clips.twitch.tv/FunnyCleverClipExample',
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'https://example.com/my-art',
  'check out https://greenroom.example/tournament',
  'www.example.org/guide',
];

export const replyOpeners: readonly string[] = ['agreed', 'true', 'lol same', 'no way', 'exactly', 'who asked', 'real', 'hahaha'];

export const cheerMessages: readonly string[] = [
  'Cheer100 great stream!',
  'Cheer500 for the hype',
  'Cheer1 hi',
  'Cheer1000 you deserve it',
];
