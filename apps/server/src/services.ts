import { SYSTEM_BOT_HASH_KEY } from '@greenroom/contracts/api/system-bots';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { TokenCipher } from './lib/crypto';
import { AccessEvents } from './lib/access-events';
import { LocalEventBus, type EventBus } from './lib/event-bus';
import { createLogger } from './lib/logging';
import { persistentSecret } from './lib/secrets';
import { ActivityService } from './modules/activity';
import { AuditLogService } from './modules/audit';
import { OAuthFlows, SessionService } from './modules/auth';
import { ChannelProviderService } from './modules/channel-providers';
import { ChannelService } from './modules/channels';
import { createChatServices, type ChatServices } from './modules/chat';
import { ChannelEmotesService } from './modules/emotes';
import { ChatLogModerationNames, ModerationService } from './modules/moderation';
import { createPublicChatServices, type PublicChatServices } from './modules/public-chat';
import { InviteService, StaffService } from './modules/staff';
import { StreamInfoService } from './modules/stream-info';
import { SystemBotService } from './modules/system-bots';
import { ConnectService, UserService } from './modules/user';
import { DbViewerRepository, ViewerCardService } from './modules/viewers';
import { DbWebhookDeliveryStore } from './modules/webhooks';
import { channelLevel } from './plugins/auth';
import type { PlatformEndpoints } from './platforms/endpoints';
import { KickClient } from './platforms/kick/kick-client';
import { KickWebhookReceiver } from './platforms/kick/kick-webhook-receiver';
import { EmoteService } from './platforms/emotes/emote-service';
import { createTokenRevoker } from './platforms/oauth-client';
import { ConnectionManager } from './platforms/connection-manager';
import { IngestPipeline } from './pipeline/ingest';
import { createPlatformAdapters, type PlatformAdapterOptions } from './platforms/registry';
import { SendQueue } from './platforms/send-queue';
import { CredentialRepository, TokenSources } from './platforms/tokens';
import { connectionsPlatform, createChatbot, type Chatbot } from './modules/chatbot';

/**
 * Everything the app needs, built once at start (no module-level singletons). This is the composition root:
 * each module's routes take only the part they declare (`<feature>RouteDeps`), never this whole object.
 */
export interface AppServices {
  config: Config;
  db: Db;
  database: Database;
  publicUrl: string;
  emulatorUrl: string | null;
  endpoints: PlatformEndpoints;
  cipher: TokenCipher;
  cookieSecret: string;
  secureCookies: boolean;
  /** The one bus, carrying the event union of `@greenroom/contracts/bus`. */
  bus: EventBus;
  sessions: SessionService;
  flows: OAuthFlows;
  users: UserService;
  /** Which OAuth flow a "Connect" button starts. */
  connect: ConnectService;
  channels: ChannelService;
  audit: AuditLogService;
  staff: StaffService;
  invites: InviteService;
  systemBots: SystemBotService;
  /** Verifies and routes Kick webhooks to the Kick connections registered in it. */
  kickWebhooks: KickWebhookReceiver;
  /** 7TV/BTTV emote sets per channel (annotates ingested chat). */
  emotes: EmoteService;
  /** A channel's 7TV/BTTV emotes for autocomplete. */
  channelEmotes: ChannelEmotesService;
  /** Platform layer: token sources, live connections, channel providers, moderation. */
  tokens: TokenSources;
  /**
   * The chat pipeline: every platform event and Greenroom's own chat events → stages → group commit
   * → bus → effects. Features add stages and effect handlers here when they are built.
   */
  ingest: IngestPipeline;
  connections: ConnectionManager;
  channelProviders: ChannelProviderService;
  moderation: ModerationService;
  /** Stream title and category, per connection and on every platform at once (routes, chatbot, dashboard). */
  streamInfo: StreamInfoService;
  /** Unified chat: retention, staff fan-out hub, history, sending. */
  chat: ChatServices;
  activity: ActivityService;
  viewerCards: ViewerCardService;
  /** The public chat popout: its fan-out hub, connection limit and recent lines. */
  publicChat: PublicChatServices;
  /** Commands, timers, spam filters, quotes, command templates: services, pipeline stages and effect handlers. */
  chatbot: Chatbot;
}

export function publicUrlOf(config: Config): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}

export function createServices(input: {
  config: Config;
  database: Database;
  endpoints: PlatformEndpoints;
  emulatorUrl: string | null;
  /** Adapter timing overrides (tests). */
  platformOptions?: PlatformAdapterOptions;
}): AppServices {
  const { config, database, endpoints } = input;
  const db = database.db;
  const publicUrl = publicUrlOf(config);
  const cipher = new TokenCipher(persistentSecret(config.ENCRYPTION_KEY, config.DATA_DIR, 'encryption-key', 32));
  const cookieSecret = persistentSecret(config.COOKIE_SECRET, config.DATA_DIR, 'cookie-secret', 48);
  const bus = new LocalEventBus(createLogger(config.LOG_LEVEL, 'bus'));
  const access = new AccessEvents(bus);
  const sessions = new SessionService(db, config.SESSION_TTL_DAYS, config.admins, access);
  const flows = new OAuthFlows(db, endpoints, publicUrl);
  const audit = new AuditLogService(db);
  let channelProviders: ChannelProviderService | null = null;
  const disconnectPlatforms = async (channelId: string, actorUserId: string | null): Promise<void> => {
    await channelProviders?.disconnectAll(channelId, actorUserId);
  };
  const users = new UserService(db, cipher, { disconnectPlatforms, access });
  const channels = new ChannelService(db, { audit, disconnectPlatforms, access });

  flows.on('signin', async (flow) => {
    const user = await users.signIn(flow.provider, flow.identity, flow.tokens);
    const session = await sessions.create(user.id);
    return {
      access_token: session.token,
      expires_at: session.expiresAt.toISOString(),
      redirect_to: `/sign-in/success?next=${encodeURIComponent(flow.redirectTo)}`,
    };
  });
  flows.on('link', async (flow) => {
    if (!flow.userId) throw new Error('link flow without a user');
    const row = await users.link(flow.userId, flow.provider, flow.identity, flow.tokens);
    return { redirect_to: `${flow.redirectTo}#user_provider_id=${encodeURIComponent(row.id)}` };
  });
  flows.on('system_bot', async (flow) => {
    await systemBots.connect(flow.provider, flow.identity, flow.tokens);
    return { redirect_to: `${flow.redirectTo}#${SYSTEM_BOT_HASH_KEY}=${encodeURIComponent(flow.provider)}` };
  });

  const kickWebhooks = new KickWebhookReceiver({
    client: new KickClient({ apiUrl: endpoints.kick.apiUrl }),
    store: new DbWebhookDeliveryStore(db),
  });
  const platformLog = createLogger(config.LOG_LEVEL, 'platforms');
  const revoke = createTokenRevoker(endpoints, platformLog);
  const systemBots = new SystemBotService({ db, cipher, revoke, log: platformLog });
  const emotes = new EmoteService({ sevenTvApiUrl: endpoints.sevenTv.apiUrl, bttvApiUrl: endpoints.bttv.apiUrl, log: platformLog });
  let connections: ConnectionManager | null = null;
  const chatLog = createLogger(config.LOG_LEVEL, 'chat');
  const ingest = new IngestPipeline({ db, bus, log: chatLog, emotes, writer: { holdRows: config.CHAT_HOLD_ROWS } });
  // Chat sends go through the connection manager.
  const chat = createChatServices({
    db,
    bus,
    retentionDays: config.CHAT_RETENTION_DAYS,
    log: chatLog,
    actions: () => connections,
    audit,
  });
  const tokens = new TokenSources({
    repository: new CredentialRepository(db, cipher),
    endpoints,
    log: platformLog,
    onReauthRequired: (ref) => {
      const done =
        ref.kind === 'system_bot'
          ? channelProviders?.publishSystemBotChanged(ref.provider)
          : channelProviders?.publishUpdated(ref.channelProviderId);
      void done?.catch((error: unknown) => platformLog.warn({ err: error }, 'publishing a provider update failed'));
    },
  });
  connections = new ConnectionManager({
    db,
    tokens,
    ingest,
    sendQueue: new SendQueue(),
    adapters: createPlatformAdapters({ endpoints, kickWebhooks, ...(input.platformOptions ? { options: input.platformOptions } : {}) }),
    log: platformLog,
  });
  const providerService = new ChannelProviderService({
    db,
    cipher,
    bus,
    manager: connections,
    audit,
    revoke,
  });
  channelProviders = providerService;
  connections.onChange = (change) =>
    void providerService
      .publishUpdated(change.channelProviderId)
      .catch((error: unknown) => platformLog.warn({ err: error }, 'publishing a provider update failed'));
  systemBots.onChanged = async (provider) => {
    await connections?.systemBotChanged(provider);
    await providerService.publishSystemBotChanged(provider);
  };
  flows.on('channel', (flow) => providerService.connect(flow));

  const streamInfo = new StreamInfoService({ connections, audit });
  const chatbotLog = createLogger(config.LOG_LEVEL, 'chatbot');
  const chatbot = createChatbot({
    db,
    platform: connectionsPlatform({
      db,
      source: () => connections,
      streamInfo,
      ingest: (source, event) => ingest.submit(source, [event]),
      log: chatbotLog,
    }),
    watchStreams: (channelId, onStatus) =>
      bus.subscribe(`channel:${channelId}`, (event) => {
        if (event.type === 'stream.status') onStatus(event.data);
      }),
    log: chatbotLog,
  });
  // The bot's spam filters (moderation phase) and commands (command phase) run in the chat pipeline; their
  // platform actions and replies are effects, run once after the message is committed.
  for (const stage of chatbot.stages) ingest.addStage(stage);
  for (const handler of chatbot.effectHandlers) ingest.addEffectHandler(handler);
  // A new channel starts with the default commands and the operators' enabled templates (same transaction).
  channels.onCreated((tx, channelId) => chatbot.commands.seed(tx, channelId));
  flows.on('channel_bot', (flow) => providerService.connectBot(flow));

  return {
    config,
    db,
    database,
    publicUrl,
    emulatorUrl: input.emulatorUrl,
    endpoints,
    cipher,
    cookieSecret,
    secureCookies: publicUrl.startsWith('https://'),
    bus,
    sessions,
    flows,
    users,
    connect: new ConnectService({ flows, channelLevel: (channelId, user) => channelLevel(db, channelId, user) }),
    channels,
    audit,
    staff: new StaffService(db, audit, access),
    invites: new InviteService(db, cipher, audit),
    systemBots,
    kickWebhooks,
    emotes,
    channelEmotes: new ChannelEmotesService(db, emotes),
    tokens,
    ingest,
    connections,
    channelProviders: providerService,
    moderation: new ModerationService({ connections, ingest, audit, names: new ChatLogModerationNames(db) }),
    streamInfo,
    chat,
    activity: new ActivityService(db, bus),
    viewerCards: new ViewerCardService(new DbViewerRepository(db)),
    publicChat: createPublicChatServices({ db, bus, queries: chat.queries }),
    chatbot,
  };
}
