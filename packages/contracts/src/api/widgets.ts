import { z } from 'zod';
import { channelProviderIdSchema } from '../providers';
import { publicChatMessageSchema } from './chat';
import { activityTypeSchema, type ActivityType } from './events';
import { giveawayEntryModeSchema, giveawayStatusSchema, winnerStatusSchema } from './giveaways';
import { queueStatusSchema } from './queues';
import { nowPlayingSchema } from './spotify';

/**
 * Stream widgets: browser sources a streamer pastes into OBS. Each widget has a type, a name, settings
 * (validated per type, shared by the editor form and the server) and a secret URL `/widget/{token}`.
 */

export const widgetTypes = ['alerts', 'chat', 'events', 'goal', 'giveaway', 'queue', 'emotes', 'spotify'] as const;
export const widgetTypeSchema = z.enum(widgetTypes);
export type WidgetType = z.infer<typeof widgetTypeSchema>;
export const widgetTypeLabels: Record<WidgetType, string> = {
  alerts: 'Alert box',
  chat: 'Chat box',
  events: 'Event list',
  goal: 'Goal bar',
  giveaway: 'Giveaway',
  queue: 'Viewer queue',
  emotes: 'Emote wall',
  spotify: 'Spotify now playing',
};
export const widgetTypeDescriptions: Record<WidgetType, string> = {
  alerts: 'Shows follows, subs, raids, cheers and more one at a time, with your own text for each.',
  chat: 'Your chat from every platform, with emotes and badges.',
  events: 'The latest follows, subs, raids and cheers as a list.',
  goal: 'A progress bar toward a follower, subscriber or custom goal.',
  giveaway: "Your giveaway on stream: how to enter, the entries as they come in, and the winner when it's drawn.",
  queue: 'The viewer queue: who is next, live as viewers join and you pick them.',
  emotes: 'Emotes from chat (platform, 7TV and BTTV) floating across the screen as viewers use them.',
  spotify: 'The song your Spotify plays: cover, title, artists and progress, changing with the track.',
};

export const WIDGET_NAME_MAX = 60;
export const ALERT_TEMPLATE_MAX = 200;
export const ALERT_DURATION_MIN_SECONDS = 2;
export const ALERT_DURATION_MAX_SECONDS = 60;
export const GOAL_TITLE_MAX = 80;
export const GOAL_TARGET_MAX = 10_000_000;
export const CHAT_MESSAGES_MAX = 100;
export const EVENT_LIST_MAX = 20;
export const HIDDEN_USERS_MAX = 50;
/** How far back an alert box that reconnects is given the alerts it missed (by id, each shown once). */
export const WIDGET_REPLAY_SECONDS = 60;

/** The events an alert box and an event list can show (the activity types without stream online/offline). */
export const alertTypes = [
  'follow',
  'sub',
  'resub',
  'gift',
  'raid',
  'cheer',
  'superchat',
  'supersticker',
  'membership',
  'membership_gift',
  'kicks',
  'tiktok_gift',
] as const satisfies readonly ActivityType[];
export const alertTypeSchema = z.enum(alertTypes);
export type AlertType = z.infer<typeof alertTypeSchema>;
export const alertTypeLabels: Record<AlertType, string> = {
  follow: 'Follow',
  sub: 'Subscription',
  resub: 'Resubscription',
  gift: 'Gifted subs',
  raid: 'Raid',
  cheer: 'Cheer',
  superchat: 'Super Chat',
  supersticker: 'Super Sticker',
  membership: 'Membership',
  membership_gift: 'Gifted memberships',
  kicks: 'Kicks',
  tiktok_gift: 'TikTok gift',
};
/** What an alert's `amount` threshold compares: the bits, viewers, gifts or money of the event. */
export const alertAmountLabels: Partial<Record<AlertType, string>> = {
  gift: 'Minimum gifts',
  raid: 'Minimum raiders',
  cheer: 'Minimum bits',
  superchat: 'Minimum amount',
  supersticker: 'Minimum amount',
  membership_gift: 'Minimum gifts',
  kicks: 'Minimum Kicks',
  tiktok_gift: 'Minimum diamonds',
};
export const defaultAlertTemplates: Record<AlertType, string> = {
  follow: '{name} just followed!',
  sub: '{name} subscribed!',
  resub: '{name} resubscribed for {months} months!',
  gift: '{name} gifted {count} subs!',
  raid: '{name} is raiding with {count} viewers!',
  cheer: '{name} cheered {amount}!',
  superchat: '{name} sent a Super Chat of {amount}!',
  supersticker: '{name} sent a Super Sticker!',
  membership: '{name} became a member!',
  membership_gift: '{name} gifted {count} memberships!',
  kicks: '{name} sent {amount}!',
  tiktok_gift: '{name} sent {amount}!',
};
/** The variables an alert template may use. */
export const alertTemplateVariables = ['name', 'amount', 'count', 'months', 'tier', 'message', 'platform'] as const;

const colorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/u, 'A colour like #ffcc00');
const size = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} is required` })
    .int(`${label} is a whole number`)
    .min(min, `${label} is at least ${min}`)
    .max(max, `${label} is at most ${max}`);
const fontSize = size('Font size', 10, 96);
const frame = { width: size('Width', 100, 3840), height: size('Height', 40, 2160) };

/** Uploaded alert media: images (PNG, JPEG, GIF, WebP) and sounds (MP3, OGG, WAV, M4A, FLAC), typed by content. */
export const widgetMediaKinds = ['image', 'sound'] as const;
export const widgetMediaKindSchema = z.enum(widgetMediaKinds);
export type WidgetMediaKind = z.infer<typeof widgetMediaKindSchema>;
export const MEDIA_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const MEDIA_SOUND_MAX_BYTES = 2 * 1024 * 1024;
export const MEDIA_PER_CHANNEL_MAX = 100;
export const MEDIA_NAME_MAX = 100;
/** The public address of an uploaded file: its content hash, so it never changes and caches forever. */
export const mediaUrl = (sha256: string) => `/api/2/public/widget-media/${sha256}`;
const mediaUrlSchema = z
  .string()
  .regex(/^\/api\/2\/public\/widget-media\/[0-9a-f]{64}$/u, 'Pick an uploaded file')
  .nullable();

export const widgetMediaSchema = z.object({
  id: z.string(),
  kind: widgetMediaKindSchema,
  /** Detected from the file's content. */
  content_type: z.string(),
  name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  url: z.string(),
  created_at: z.string(),
});
export type WidgetMedia = z.infer<typeof widgetMediaSchema>;
export const widgetMediaListSchema = z.array(widgetMediaSchema);
export const widgetMediaUploadQuerySchema = z.object({
  name: z.string().trim().min(1, 'A file name is required').max(MEDIA_NAME_MAX, `A file name is at most ${MEDIA_NAME_MAX} characters`),
});

export const alertTypeSettingsSchema = z.object({
  enabled: z.boolean(),
  template: z.string().trim().min(1, 'Text is required').max(ALERT_TEMPLATE_MAX, `Text is at most ${ALERT_TEMPLATE_MAX} characters`),
  duration_seconds: size('Duration', ALERT_DURATION_MIN_SECONDS, ALERT_DURATION_MAX_SECONDS),
  /** Alerts below this amount (bits, raiders, gifts, money) are not shown; 0 shows all. */
  min_amount: size('Minimum', 0, 1_000_000),
  /** An uploaded image or GIF shown above the text (its `mediaUrl`), or none. */
  image_url: mediaUrlSchema,
  /** An uploaded sound played when the alert appears, or none. */
  sound_url: mediaUrlSchema,
  /** Sound volume, percent. */
  volume: size('Volume', 0, 100),
  /** Reads the viewer's message aloud after the sound (the browser's own speech: OBS's browser source speaks it). */
  tts: z.boolean(),
});
export type AlertTypeSettings = z.infer<typeof alertTypeSettingsSchema>;

export const alertsSettingsSchema = z.object({
  ...frame,
  font_size: fontSize,
  text_color: colorSchema,
  accent_color: colorSchema,
  show_message: z.boolean(),
  alerts: z.object(
    Object.fromEntries(alertTypes.map((t) => [t, alertTypeSettingsSchema])) as Record<AlertType, typeof alertTypeSettingsSchema>,
  ),
});
export type AlertsSettings = z.infer<typeof alertsSettingsSchema>;

const hiddenUserSchema = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .transform((v) => v.toLowerCase());

export const chatBoxSettingsSchema = z.object({
  ...frame,
  font_size: fontSize,
  text_color: colorSchema,
  max_messages: size('Messages', 1, CHAT_MESSAGES_MAX),
  /** Seconds a message stays before fading out; 0 keeps it. */
  fade_after_seconds: size('Fade after', 0, 3600),
  hide_commands: z.boolean(),
  /** Logins whose messages are not shown (bots), lower case. */
  hidden_users: z.array(hiddenUserSchema).max(HIDDEN_USERS_MAX, `At most ${HIDDEN_USERS_MAX} names`),
  show_platform_icons: z.boolean(),
  show_badges: z.boolean(),
  /** Platforms shown; empty shows all. */
  providers: z.array(channelProviderIdSchema),
});
export type ChatBoxSettings = z.infer<typeof chatBoxSettingsSchema>;

export const eventListSettingsSchema = z.object({
  ...frame,
  font_size: fontSize,
  text_color: colorSchema,
  accent_color: colorSchema,
  max_events: size('Events', 1, EVENT_LIST_MAX),
  types: z.array(alertTypeSchema).min(1, 'Pick at least one event type'),
});
export type EventListSettings = z.infer<typeof eventListSettingsSchema>;

export const goalKinds = ['follows', 'subs', 'points', 'custom'] as const;
export const goalKindSchema = z.enum(goalKinds);
export type GoalKind = z.infer<typeof goalKindSchema>;
export const goalKindLabels: Record<GoalKind, string> = {
  follows: 'Follows (counted automatically)',
  subs: 'Subscriptions and memberships (counted automatically)',
  points: 'Points earned by viewers (counted automatically)',
  custom: 'Custom (you set the count)',
};

export const goalSettingsSchema = z.object({
  ...frame,
  font_size: fontSize,
  text_color: colorSchema,
  bar_color: colorSchema,
  title: z.string().trim().min(1, 'Title is required').max(GOAL_TITLE_MAX, `Title is at most ${GOAL_TITLE_MAX} characters`),
  kind: goalKindSchema,
  target: size('Target', 1, GOAL_TARGET_MAX),
  /** Added to the automatic count (a goal started elsewhere); the whole count of a custom goal. */
  start_value: size('Starting count', 0, GOAL_TARGET_MAX),
});
export type GoalSettings = z.infer<typeof goalSettingsSchema>;

export const giveawayWidgetSettingsSchema = z.object({
  ...frame,
  font_size: fontSize,
  text_color: colorSchema,
  accent_color: colorSchema,
  /** Shows how many viewers entered. */
  show_entries: z.boolean(),
  /** Shows how to enter (the keyword or ticket price). */
  show_how_to_enter: z.boolean(),
});
export type GiveawayWidgetSettings = z.infer<typeof giveawayWidgetSettingsSchema>;

export const QUEUE_WIDGET_ENTRIES_MAX = 50;
export const queueWidgetSettingsSchema = z.object({
  ...frame,
  font_size: fontSize,
  text_color: colorSchema,
  accent_color: colorSchema,
  /** Viewers shown from the front of the line. */
  max_entries: size('Viewers shown', 1, QUEUE_WIDGET_ENTRIES_MAX),
  show_platform_icons: z.boolean(),
});
export type QueueWidgetSettings = z.infer<typeof queueWidgetSettingsSchema>;

export const emoteWallSettingsSchema = z.object({
  ...frame,
  font_size: fontSize,
  text_color: colorSchema,
  emote_size: size('Emote size', 16, 256),
  /** Emotes on screen at once; more wait for room (the oldest leave first). */
  max_on_screen: size('Emotes on screen', 1, 200),
  /** Emotes taken from one message (a spam of one emote does not flood the wall). */
  per_message: size('Emotes per message', 1, 20),
  duration_seconds: size('Duration', 2, 30),
  /** Platforms whose chat feeds the wall; empty: all. */
  providers: z.array(channelProviderIdSchema),
});
export type EmoteWallSettings = z.infer<typeof emoteWallSettingsSchema>;

export const NOW_PLAYING_IDLE_TEXT_MAX = 80;
/** Spotify now playing: the track with its cover, artists and progress; what to show when nothing plays. */
export const nowPlayingSettingsSchema = z.object({
  ...frame,
  font_size: fontSize,
  text_color: colorSchema,
  accent_color: colorSchema,
  /** A dark card behind the track (reads on any scene); off: the text floats on the scene with its shadow. */
  show_background: z.boolean(),
  show_album_art: z.boolean(),
  show_album: z.boolean(),
  show_progress: z.boolean(),
  /** A paused track: hidden (on) or shown as paused (off). */
  hide_when_paused: z.boolean(),
  /** Shown when nothing plays (and Spotify is connected); empty: the widget shows nothing. */
  idle_text: z.string().trim().max(NOW_PLAYING_IDLE_TEXT_MAX, `Text is at most ${NOW_PLAYING_IDLE_TEXT_MAX} characters`),
});
export type NowPlayingSettings = z.infer<typeof nowPlayingSettingsSchema>;

export const widgetSettingsSchemas = {
  alerts: alertsSettingsSchema,
  chat: chatBoxSettingsSchema,
  events: eventListSettingsSchema,
  goal: goalSettingsSchema,
  giveaway: giveawayWidgetSettingsSchema,
  queue: queueWidgetSettingsSchema,
  emotes: emoteWallSettingsSchema,
  spotify: nowPlayingSettingsSchema,
} as const;
export type WidgetSettingsOf = {
  alerts: AlertsSettings;
  chat: ChatBoxSettings;
  events: EventListSettings;
  goal: GoalSettings;
  giveaway: GiveawayWidgetSettings;
  queue: QueueWidgetSettings;
  emotes: EmoteWallSettings;
  spotify: NowPlayingSettings;
};

/** The settings a new widget of each type starts with. */
export function defaultWidgetSettings<T extends WidgetType>(type: T): WidgetSettingsOf[T] {
  const all: WidgetSettingsOf = {
    alerts: {
      width: 800,
      height: 300,
      font_size: 36,
      text_color: '#ffffff',
      accent_color: '#40c057',
      show_message: true,
      alerts: Object.fromEntries(
        alertTypes.map((t) => [
          t,
          {
            enabled: true,
            template: defaultAlertTemplates[t],
            duration_seconds: 6,
            min_amount: 0,
            image_url: null,
            sound_url: null,
            volume: 60,
            tts: false,
          },
        ]),
      ) as Record<AlertType, AlertTypeSettings>,
    },
    chat: {
      width: 400,
      height: 600,
      font_size: 18,
      text_color: '#ffffff',
      max_messages: 30,
      fade_after_seconds: 0,
      hide_commands: true,
      hidden_users: ['nightbot', 'streamelements', 'moobot', 'fossabot'],
      show_platform_icons: true,
      show_badges: true,
      providers: [],
    },
    events: {
      width: 400,
      height: 400,
      font_size: 18,
      text_color: '#ffffff',
      accent_color: '#40c057',
      max_events: 8,
      types: ['follow', 'sub', 'resub', 'gift', 'raid', 'cheer', 'superchat', 'membership', 'kicks', 'tiktok_gift'],
    },
    goal: {
      width: 600,
      height: 80,
      font_size: 20,
      text_color: '#ffffff',
      bar_color: '#40c057',
      title: 'Follower goal',
      kind: 'follows',
      target: 100,
      start_value: 0,
    },
    giveaway: {
      width: 500,
      height: 260,
      font_size: 24,
      text_color: '#ffffff',
      accent_color: '#40c057',
      show_entries: true,
      show_how_to_enter: true,
    },
    queue: {
      width: 400,
      height: 400,
      font_size: 20,
      text_color: '#ffffff',
      accent_color: '#40c057',
      max_entries: 8,
      show_platform_icons: true,
    },
    emotes: {
      width: 1920,
      height: 1080,
      font_size: 20,
      text_color: '#ffffff',
      emote_size: 96,
      max_on_screen: 40,
      per_message: 5,
      duration_seconds: 6,
      providers: [],
    },
    spotify: {
      width: 500,
      height: 120,
      font_size: 20,
      text_color: '#ffffff',
      accent_color: '#1db954',
      show_background: true,
      show_album_art: true,
      show_album: false,
      show_progress: true,
      hide_when_paused: false,
      idle_text: '',
    },
  };
  return all[type];
}

const nameSchema = z.string().trim().min(1, 'Name is required').max(WIDGET_NAME_MAX, `Name is at most ${WIDGET_NAME_MAX} characters`);

export const widgetCreateBodySchema = z.object({ type: widgetTypeSchema, name: nameSchema.optional() });
export type WidgetCreateBody = z.input<typeof widgetCreateBodySchema>;

/** Saving a widget: its type (which must be the widget's own), name and the settings of that type. */
export const widgetUpdateBodySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('alerts'), name: nameSchema, settings: alertsSettingsSchema }),
  z.object({ type: z.literal('chat'), name: nameSchema, settings: chatBoxSettingsSchema }),
  z.object({ type: z.literal('events'), name: nameSchema, settings: eventListSettingsSchema }),
  z.object({ type: z.literal('goal'), name: nameSchema, settings: goalSettingsSchema }),
  z.object({ type: z.literal('giveaway'), name: nameSchema, settings: giveawayWidgetSettingsSchema }),
  z.object({ type: z.literal('queue'), name: nameSchema, settings: queueWidgetSettingsSchema }),
  z.object({ type: z.literal('emotes'), name: nameSchema, settings: emoteWallSettingsSchema }),
  z.object({ type: z.literal('spotify'), name: nameSchema, settings: nowPlayingSettingsSchema }),
]);
export type WidgetUpdateBody = z.input<typeof widgetUpdateBodySchema>;

export const widgetSchema = z.object({
  id: z.string(),
  channel_id: z.string(),
  type: widgetTypeSchema,
  name: z.string(),
  settings: z.record(z.string(), z.unknown()),
  /** The secret part of the widget's public URL `/widget/{token}`; rotating it gives a new one. */
  token: z.string(),
  /** Automatic goals count events from this time on (reset sets it to now). */
  counted_since: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Widget = z.infer<typeof widgetSchema>;
export const widgetListSchema = z.array(widgetSchema);
export const widgetParamsSchema = z.object({ channelId: z.string().max(64), widgetId: z.string().max(64) });
export const widgetTestBodySchema = z.object({ type: alertTypeSchema });
export type WidgetTestBody = z.infer<typeof widgetTestBodySchema>;

/** What a widget page sees of an activity: no platform user ids, nothing of moderation. */
export const widgetEventSchema = z.object({
  id: z.string(),
  type: activityTypeSchema,
  provider: channelProviderIdSchema,
  name: z.string(),
  tier: z.string().nullable(),
  months: z.number().int().nullable(),
  count: z.number().int().nullable(),
  amount: z.string().nullable(),
  message: z.string().nullable(),
  occurred_at: z.string(),
  /** A "Send test event" from the editor (not counted by goals). */
  test: z.boolean(),
  /** Sent again from the activity feed (alerts show it; lists and goals already have it). */
  replay: z.boolean(),
});
export type WidgetEvent = z.infer<typeof widgetEventSchema>;

/** A giveaway as the stream sees it: no platform or wallet ids. */
export const publicGiveawaySchema = z.object({
  id: z.string(),
  title: z.string(),
  status: giveawayStatusSchema,
  entry_mode: giveawayEntryModeSchema,
  keyword: z.string(),
  ticket_cost: z.number().int(),
  entry_count: z.number().int(),
  closes_at: z.string().nullable(),
  winners: z.array(
    z.object({ place: z.number().int(), display_name: z.string(), provider: channelProviderIdSchema, status: winnerStatusSchema }),
  ),
});
export type PublicGiveaway = z.infer<typeof publicGiveawaySchema>;

/** A viewer queue as the stream sees it: names and places, no platform or wallet ids. */
export const publicQueueSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: queueStatusSchema,
  size: z.number().int(),
  entries: z.array(
    z.object({ position: z.number().int(), display_name: z.string(), provider: channelProviderIdSchema, priority: z.boolean() }),
  ),
});
export type PublicQueue = z.infer<typeof publicQueueSchema>;

export const publicWidgetSchema = z.object({
  type: widgetTypeSchema,
  settings: z.record(z.string(), z.unknown()),
  /** Goal bars: the current count. */
  goal_current: z.number().int().nullable(),
  /** Event lists: the latest events, newest first. */
  events: z.array(widgetEventSchema),
  /** Chat boxes: the latest messages, oldest first. */
  messages: z.array(publicChatMessageSchema),
  /** Giveaway widgets: the channel's latest giveaway (open, or the last one drawn), or none. */
  giveaway: publicGiveawaySchema.nullable(),
  /** Viewer queue widgets: the channel's open queue (else the last one changed), or none. */
  queue: publicQueueSchema.nullable(),
  /**
   * Spotify now playing widgets: what the channel's Spotify plays (track details are public on Spotify). Absent from
   * a server older than the page (a deploy in progress): null.
   */
  now_playing: nowPlayingSchema.nullable().default(null),
  /** When the server answered: after a drop, an alert box asks for the alerts since then (`?since=` on its socket). */
  server_time: z.string(),
});
export type PublicWidget = z.infer<typeof publicWidgetSchema>;

/** Frames of the widget socket `/api/2/public/widgets/{token}/ws`. */
export const widgetSocketMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('event'), data: widgetEventSchema }),
  z.object({ type: z.literal('chat.message'), data: publicChatMessageSchema }),
  z.object({ type: z.literal('chat.removed'), data: z.object({ ids: z.array(z.string()) }) }),
  z.object({ type: z.literal('settings'), data: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('goal.current'), data: z.object({ current: z.number().int() }) }),
  z.object({ type: z.literal('giveaway'), data: publicGiveawaySchema }),
  z.object({ type: z.literal('queue'), data: publicQueueSchema }),
  z.object({ type: z.literal('queue.removed'), data: z.object({ id: z.string() }) }),
  z.object({ type: z.literal('now_playing'), data: nowPlayingSchema }),
  z.object({ type: z.literal('pong') }),
]);
export type WidgetSocketMessage = z.infer<typeof widgetSocketMessageSchema>;
/** The close code of a widget socket whose URL was rotated or whose widget was deleted: do not reconnect. */
export const WIDGET_GONE_CLOSE_CODE = 4404;

/** How much an event moves a goal of this kind (0: not counted). */
export function goalIncrement(kind: GoalKind, event: Pick<WidgetEvent, 'type' | 'count'>): number {
  switch (kind) {
    case 'follows':
      return event.type === 'follow' ? 1 : 0;
    case 'subs':
      if (event.type === 'sub' || event.type === 'resub' || event.type === 'membership') return 1;
      if (event.type === 'gift' || event.type === 'membership_gift') return Math.max(1, event.count ?? 1);
      return 0;
    case 'points':
    case 'custom':
      return 0;
  }
}

/** How often a points goal's page reads its count again (points are earned by chat and watch time, not events). */
export const POINTS_GOAL_REFRESH_MS = 15_000;
/** Ledger kinds that count toward a points goal: points viewers earned (not gifts between viewers, games or staff changes). */
export const pointsGoalKinds = [
  'watch',
  'chat',
  'follow',
  'sub',
  'resub',
  'gift',
  'raid',
  'cheer',
  'superchat',
  'kicks',
  'tiktok_gift',
] as const;

/** The number an alert's minimum compares: bits, raiders, gifts or the money/diamonds in `amount`. */
export function alertAmount(event: Pick<WidgetEvent, 'count' | 'amount'>): number {
  if (event.count !== null) return event.count;
  const match = /[\d][\d,.]*/u.exec(event.amount ?? '');
  return match ? Number(match[0].replace(/,/gu, '')) || 0 : 0;
}

/** Fills `{name}`, `{amount}` … of an alert template; unknown variables stay as written. */
export function renderAlertTemplate(template: string, event: WidgetEvent, platformName: string): string {
  const values: Record<string, string> = {
    name: event.name,
    amount: event.amount ?? String(event.count ?? ''),
    count: String(event.count ?? 1),
    months: String(event.months ?? 1),
    tier: event.tier ?? '',
    message: event.message ?? '',
    platform: platformName,
  };
  return template.replace(/\{(\w+)\}/gu, (whole, key: string) => values[key] ?? whole);
}
