/**
 * The chatbot's variables. Synchronous ones read the reply context (caller, arguments, the stream
 * status the bot has seen); asynchronous ones (`count`, `followers`, `urlfetch`, and `title`/`game`
 * when no status was seen yet) call the services the context carries. Names are case-insensitive;
 * StreamElements and Fossabot dotted names are accepted as aliases.
 */
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { splitQuoted, type VariableCall, type VariableResolver } from './template';

export interface ReplyUser {
  readonly providerUserId: string;
  readonly login: string;
  readonly displayName: string;
}

/** What the bot last saw of the stream on the platform the command was typed on. */
export interface StreamSnapshot {
  readonly isLive: boolean;
  /** ms since the epoch, when live. */
  readonly startedAt: number | null;
  readonly title: string | null;
  readonly category: string | null;
  readonly viewers: number | null;
}

export interface ReplyContext {
  readonly user: ReplyUser;
  /** The words after the command name. */
  readonly args: readonly string[];
  /** Everything after the command name, as typed. */
  readonly query: string;
  readonly platform: ChannelProviderId;
  /** The channel's name on that platform. */
  readonly channelName: string;
  readonly now: number;
  readonly stream: StreamSnapshot | null;
  /** Display names of viewers who chatted recently, newest first. */
  readonly chatters: () => readonly string[];
  readonly random: () => number;
  /** The command's use count after this use (atomic increment), when rendering a command. */
  readonly count?: () => Promise<number>;
  /** The channel's follower count on that platform (YouTube: subscribers); null where the platform does not publish one. */
  readonly followers?: () => Promise<number | null>;
  readonly urlfetch?: (url: string) => Promise<string>;
  /** Fresh title and category from the platform when no status was seen. */
  readonly streamInfo?: () => Promise<{ title: string | null; category: string | null }>;
}

/** h:mm:ss */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

const timeFormats = new Map<string, Intl.DateTimeFormat | null>();
/** HH:mm:ss in an IANA zone; null for an unknown zone. Formatters are cached per zone. */
export function formatTimeIn(zone: string, at: number): string | null {
  let format = timeFormats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      format = null;
    }
    if (timeFormats.size < 1000) timeFormats.set(zone, format);
  }
  return format ? format.format(at) : null;
}

/** `1-100`, `5 10`, `-3-3` → bounds; null when not two integers. */
function parseRange(args: string): [number, number] | null {
  const m = /^\s*(-?\d{1,9})\s*(?:-|\s|,|\.\.)\s*(-?\d{1,9})\s*$/.exec(args);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a <= b ? [a, b] : [b, a];
}

const stripAt = (word: string) => word.replace(/^@+/, '');

type Fn = (call: VariableCall<ReplyContext>) => string | Promise<string>;

const user: Fn = ({ context }) => context.user.displayName;
const touser: Fn = ({ context }) => {
  const first = context.args[0];
  const name = first ? stripAt(first) : '';
  return name || context.user.displayName;
};

function positional(index: number): Fn {
  return ({ context }) => context.args[index - 1] ?? '';
}

const uptime: Fn = ({ context }) => {
  const s = context.stream;
  if (!s?.isLive || s.startedAt === null) return 'offline';
  return formatDuration(context.now - s.startedAt);
};

const title: Fn = ({ context }) => {
  if (context.stream?.title != null) return context.stream.title;
  if (!context.streamInfo) return '';
  return context.streamInfo().then((i) => i.title ?? '');
};

const game: Fn = ({ context }) => {
  if (context.stream?.category != null) return context.stream.category;
  if (!context.streamInfo) return '';
  return context.streamInfo().then((i) => i.category ?? '');
};

const viewers: Fn = ({ context }) => String(context.stream?.isLive ? (context.stream.viewers ?? 0) : 0);

const followers: Fn = ({ name, context }) => {
  if (!context.followers) throw new Error(`${name} is not available`);
  return context.followers().then((n) => (n === null ? `[${name}: not on ${providers[context.platform].name}]` : String(n)));
};

const count: Fn = ({ name, context }) => {
  if (!context.count) throw new Error(`${name} outside a command`);
  return context.count().then(String);
};

const random: Fn = ({ args, context }) => {
  const range = parseRange(args || '1-100');
  if (!range) throw new Error('random needs a range like 1-100');
  const [lo, hi] = range;
  return String(lo + Math.floor(context.random() * (hi - lo + 1)));
};

const randomPick: Fn = ({ args, context }) => {
  const options = splitQuoted(args);
  if (options.length === 0) throw new Error('random.pick needs options');
  return options[Math.floor(context.random() * options.length)] ?? '';
};

const randomChatter: Fn = ({ context }) => {
  const list = context.chatters();
  if (list.length === 0) return context.user.displayName;
  return list[Math.floor(context.random() * list.length)] ?? context.user.displayName;
};

const time: Fn = ({ args, context }) => {
  const zone = args.trim() || 'UTC';
  const formatted = formatTimeIn(zone, context.now);
  if (formatted === null) throw new Error(`unknown time zone ${zone}`);
  return formatted;
};

const urlfetch: Fn = ({ args, context }) => {
  if (!context.urlfetch) throw new Error('urlfetch is not available');
  return context.urlfetch(args.trim());
};

/** Every variable, by lower-case name. */
export const variables: ReadonlyMap<string, Fn> = new Map<string, Fn>([
  ['user', user],
  ['user.name', user],
  ['sender', user],
  ['source', user],
  ['touser', touser],
  ['query', ({ context }) => context.query],
  ...Array.from({ length: 9 }, (_, i) => [String(i + 1), positional(i + 1)] as [string, Fn]),
  ['count', count],
  ['channel', ({ context }) => context.channelName],
  ['channel.name', ({ context }) => context.channelName],
  ['platform', ({ context }) => providers[context.platform].name],
  ['uptime', uptime],
  ['title', title],
  ['channel.title', title],
  ['game', game],
  ['channel.game', game],
  ['viewers', viewers],
  ['channel.viewers', viewers],
  ['followers', followers],
  ['channel.followers', followers],
  ['random', random],
  ['random.pick', randomPick],
  ['random.chatter', randomChatter],
  ['time', time],
  ['urlfetch', urlfetch],
  ['customapi', urlfetch],
]);

/** Names the editor offers (one per variable, the documented spelling). */
export const variableNames = [
  'user',
  'touser',
  'sender',
  'query',
  '1',
  'count',
  'channel',
  'platform',
  'uptime',
  'title',
  'game',
  'viewers',
  'followers',
  'random 1-100',
  'random.pick "a" "b"',
  'random.chatter',
  'time Europe/London',
  'urlfetch https://…',
] as const;

/** Variables that need I/O; a template without them renders synchronously. */
export const asyncVariables: ReadonlySet<string> = new Set(['count', 'followers', 'channel.followers', 'urlfetch', 'customapi']);

export const resolveVariable: VariableResolver<ReplyContext> = (call) => {
  const fn = variables.get(call.name);
  return fn ? fn(call) : undefined;
};
