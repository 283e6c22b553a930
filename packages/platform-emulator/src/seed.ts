/** The deterministic starting world: a few streamers per platform, bots, and a pool of viewers. */
import { createAccount, setChannelLive } from './accounts';
import type { SeededRandom } from './random';
import type { Platform, World } from './world';
import { twitchGames } from './twitch/games';

const adjectives = [
  'happy',
  'sleepy',
  'cosmic',
  'pixel',
  'turbo',
  'silent',
  'lucky',
  'salty',
  'chill',
  'hyper',
  'retro',
  'neon',
  'frosty',
  'spicy',
  'mellow',
  'brave',
  'quiet',
  'wild',
  'golden',
  'tiny',
];
const nouns = [
  'otter',
  'gamer',
  'panda',
  'wizard',
  'ninja',
  'fox',
  'toast',
  'pilot',
  'koala',
  'badger',
  'dragon',
  'llama',
  'raven',
  'comet',
  'pickle',
  'moose',
  'falcon',
  'noodle',
  'yeti',
  'cactus',
];

interface StreamerSeed {
  login: string;
  displayName: string;
  live: boolean;
}

const streamers: Record<Platform, StreamerSeed[]> = {
  twitch: [
    { login: 'greenroomdemo', displayName: 'GreenroomDemo', live: true },
    { login: 'pixelpioneer', displayName: 'PixelPioneer', live: true },
    { login: 'nightowlgg', displayName: 'NightOwlGG', live: false },
  ],
  youtube: [
    { login: 'greenroomdemo', displayName: 'Greenroom Demo', live: true },
    { login: 'retrorunner', displayName: 'Retro Runner', live: false },
  ],
  kick: [
    { login: 'greenroomdemo', displayName: 'greenroomdemo', live: true },
    { login: 'latenightlarry', displayName: 'LateNightLarry', live: false },
  ],
  tiktok: [
    { login: 'greenroomdemo', displayName: 'Greenroom Demo', live: true },
    { login: 'dancefloordiva', displayName: 'Dancefloor Diva', live: false },
  ],
  spotify: [
    { login: 'greenroomdemo', displayName: 'Greenroom Demo', live: false },
    { login: 'freelistener', displayName: 'Free Listener', live: false },
  ],
  discord: [{ login: 'greenroomdemo', displayName: 'GreenroomDemo', live: false }],
};

const bots: Record<Platform, string[]> = {
  twitch: ['GreenroomBot', 'HelperBot'],
  youtube: ['Greenroom Bot'],
  kick: ['GreenroomBot'],
  tiktok: [],
  spotify: [],
  discord: ['Greenroom Bot'],
};

const viewerCounts: Record<Platform, number> = { twitch: 300, youtube: 150, kick: 150, tiktok: 150, spotify: 5, discord: 10 };

export function seedWorld(world: World, random: SeededRandom, origin: string): void {
  for (const platform of Object.keys(streamers) as Platform[]) {
    for (const [i, s] of streamers[platform].entries()) {
      createAccount(world, random, origin, { platform, kind: 'streamer', login: s.login, displayName: s.displayName, premium: i === 0 });
    }
    for (const name of bots[platform]) createAccount(world, random, origin, { platform, kind: 'bot', displayName: name });
    const viewers = [];
    for (let i = 0; i < viewerCounts[platform]; i++) {
      const name = `${random.pick(adjectives)}${random.pick(nouns)}${random.chance(0.5) ? random.int(1, 999) : ''}`;
      const displayName = platform === 'twitch' || platform === 'kick' ? name.charAt(0).toUpperCase() + name.slice(1) : name;
      viewers.push(createAccount(world, random, origin, { platform, kind: 'viewer', displayName }));
    }
    const botAccounts = world.accountsOf(platform, 'bot');
    for (const [i, channel] of world.channelsOf(platform).entries()) {
      if (platform === 'twitch') {
        const game = i === 0 ? twitchGames[0]! : random.pick(twitchGames);
        channel.categoryId = game.id;
        channel.categoryName = game.name;
      }
      for (const bot of botAccounts) channel.moderators.add(bot.id);
      for (const v of viewers.slice(0, 3)) channel.moderators.add(v.id);
      for (const v of viewers.slice(3, 6)) channel.vips.add(v.id);
      for (const v of viewers) if (random.chance(0.15)) channel.subscribers.add(v.id);
      // Every other viewer follows (no random draw: the seeded world stays the same as before followers existed).
      for (const [j, v] of viewers.entries()) if (j % 2 === 0) channel.followers.set(v.id, v.createdAt);
      const seed = streamers[platform][i];
      if (seed?.live) setChannelLive(world, random, channel, true, random.int(20, 2000));
    }
  }
  // Seeding is not something the product did.
  world.events.length = 0;
}
