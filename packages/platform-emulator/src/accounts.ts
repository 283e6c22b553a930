/** Creating simulated accounts and their channels, with platform-shaped ids. */
import type { Account, AccountKind, Channel, Platform, World } from './world';
import type { SeededRandom } from './random';

const colors = [
  '#FF0000',
  '#0000FF',
  '#008000',
  '#B22222',
  '#FF7F50',
  '#9ACD32',
  '#FF4500',
  '#2E8B57',
  '#DAA520',
  '#D2691E',
  '#5F9EA0',
  '#1E90FF',
  '#FF69B4',
  '#8A2BE2',
  '#00FF7F',
];
const streamPlatforms: ReadonlySet<Platform> = new Set(['twitch', 'youtube', 'kick', 'tiktok']);

export interface NewAccount {
  platform: Platform;
  kind: AccountKind;
  displayName: string;
  login?: string;
  premium?: boolean;
}

/** A platform-shaped user id: Twitch/Kick numeric, YouTube UC…, TikTok long numeric, Spotify alnum, Discord snowflake. */
export function platformUserId(random: SeededRandom, platform: Platform): string {
  switch (platform) {
    case 'twitch':
      return random.digits(9);
    case 'youtube':
      return `UC${random.string(22, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_')}`;
    case 'kick':
      return random.digits(8);
    case 'tiktok':
      return random.digits(19);
    case 'spotify':
      return random.string(25);
    case 'discord':
      return random.digits(18);
  }
}

export function loginFromDisplayName(displayName: string): string {
  const login = displayName
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '')
    .slice(0, 25);
  return login || 'user';
}

export function avatarUrl(origin: string, platform: Platform, id: string): string {
  return `${origin}/_emulator/avatar/${platform}/${id}.svg`;
}

/** Adds an account (and, for streamers on streaming platforms, its offline channel) to the world. */
export function createAccount(world: World, random: SeededRandom, origin: string, input: NewAccount): Account {
  let login = input.login ?? loginFromDisplayName(input.displayName);
  for (let n = 2; world.accountByLogin(input.platform, login); n++) login = `${loginFromDisplayName(input.displayName).slice(0, 22)}${n}`;
  let id = platformUserId(random, input.platform);
  while (world.account(input.platform, id)) id = platformUserId(random, input.platform);
  const account = world.addAccount({
    id,
    platform: input.platform,
    kind: input.kind,
    login,
    displayName: input.displayName,
    color: random.pick(colors),
    avatarUrl: avatarUrl(origin, input.platform, id),
    email: `${login}@example.com`,
    createdAt: new Date(Date.UTC(2015 + random.int(0, 9), random.int(0, 11), random.int(1, 28))),
    ...(input.platform === 'spotify' ? { premium: input.premium ?? true } : {}),
  });
  if (input.kind === 'streamer' && streamPlatforms.has(input.platform)) createChannel(world, account);
  return account;
}

export function defaultCategory(platform: Platform): { id: string; name: string } {
  switch (platform) {
    case 'twitch':
      return { id: '509658', name: 'Just Chatting' };
    case 'youtube':
      return { id: '20', name: 'Gaming' };
    case 'kick':
      return { id: '15', name: 'Just Chatting' };
    case 'tiktok':
    case 'spotify':
    case 'discord':
      return { id: '', name: '' };
  }
}

export function createChannel(world: World, account: Account): Channel {
  const category = defaultCategory(account.platform);
  return world.addChannel({
    id: account.id,
    platform: account.platform,
    title: `${account.displayName} live on Greenroom`,
    categoryId: category.id,
    categoryName: category.name,
    live: false,
    startedAt: null,
    viewerCount: 0,
    broadcastId: null,
    liveChatId: null,
    moderators: new Set(),
    vips: new Set(),
    subscribers: new Set(),
    followers: new Map(),
    chatters: new Set(),
    bans: new Map(),
  });
}

/** YouTube needs a broadcast (video) id and a live chat id while live. */
export function youtubeLiveIds(random: SeededRandom): { broadcastId: string; liveChatId: string } {
  const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const broadcastId = random.string(11, b64);
  return { broadcastId, liveChatId: `KicKGFVDX${random.string(32, b64)}` };
}

/** Takes a channel live (YouTube: with fresh broadcast/chat ids) or offline. */
export function setChannelLive(world: World, random: SeededRandom, channel: Channel, live: boolean, viewerCount?: number): Channel {
  const ids = live && channel.platform === 'youtube' ? youtubeLiveIds(random) : {};
  return world.setLive(channel, live, { ...ids, ...(viewerCount !== undefined ? { viewerCount } : {}) });
}
