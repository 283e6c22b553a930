/**
 * Builds the chatbot from the dependencies it takes (database, the platform facade, the stream
 * status feed) and hands back what the rest of the server plugs in: services for the routes, the two
 * chat pipeline stages, the effect handlers, the seeding hook for new channels and the timer job.
 */
import { eq } from 'drizzle-orm';
import type { StreamStatus } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders } from '../../db/schema';
import type { ChatStage, EffectHandler } from '../../pipeline/stage';
import { BuiltinRegistry } from './builtins';
import type { ChatbotPlatform } from './chatbot-platform';
import { ChatbotState } from './chatbot-state';
import { CommandService } from './command-service';
import { ChatbotConfigService } from './config-service';
import { registerDefaultBuiltins } from './default-builtins';
import { createFilterHandler, createReplyHandler, type ChatbotEffectDeps } from './effects';
import { FilterService } from './filter-service';
import { QuoteService } from './quote-service';
import { ReplyOutcomes, type Tx } from './reply-outcomes';
import { createCommandStage, createFilterStage, type ModerationCapabilities } from './stages';
import { TemplateService } from './template-service';
import { TimerJob } from './timer-job';
import { TimerService } from './timer-service';
import { urlFetch, type UrlFetchOptions } from './url-fetch';

/** Reply outcomes are kept two days: a reply effect's retries end within minutes. */
const REPLY_OUTCOMES_KEPT_MS = 2 * 24 * 3600_000;

export interface ChatbotDeps {
  db: Db;
  platform: ChatbotPlatform;
  /** Subscribes to a channel's stream statuses (the bus); returns the unsubscribe. */
  watchStreams?: (channelId: string, onStatus: (status: StreamStatus) => void) => () => void;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** A command was answered (its reply ran): the stats' "commands used". */
  onCommandUsed?: ChatbotEffectDeps['onCommandUsed'];
  /** Test seams. */
  clock?: () => number;
  random?: () => number;
  urlFetchOptions?: UrlFetchOptions;
  capabilities?: ModerationCapabilities;
  timerIntervalMs?: number;
  /** Whether this instance holds the channel (several instances): timers run only where the channel's chat is counted. */
  owns?: (channelId: string) => boolean;
}

export interface Chatbot {
  state: ChatbotState;
  builtins: BuiltinRegistry;
  commands: CommandService;
  timers: TimerService;
  filters: FilterService;
  quotes: QuoteService;
  templates: TemplateService;
  outcomes: ReplyOutcomes;
  /** The whole configuration: export, import, versions. */
  config: ChatbotConfigService;
  /** The moderation stage (filters) and the command stage, for the chat pipeline. */
  stages: ChatStage[];
  effectHandlers: EffectHandler[];
  timerJob: TimerJob;
  /** A channel's staff changed: their platform identities count as their level in chat. */
  staffChanged(): void;
  /** Loads every connected channel and starts the timer job. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createChatbot(deps: ChatbotDeps): Chatbot {
  const { db, platform, log } = deps;
  const state = new ChatbotState(db, log, (bot) => {
    if (deps.watchStreams) bot.dispose = deps.watchStreams(bot.channelId, (status) => bot.sawStatus(status));
  });
  const builtins = new BuiltinRegistry();
  const connectedProviders = async (channelId: string, exec: Db | Tx = db) =>
    (
      await exec.select({ provider: channelProviders.provider }).from(channelProviders).where(eq(channelProviders.channelId, channelId))
    ).map((r) => r.provider as ChannelProviderId);
  const commands = new CommandService({ db, state, builtins, connectedProviders });
  const timers = new TimerService(db, connectedProviders, deps.clock);
  const filters = new FilterService(db, state);
  const quotes = new QuoteService(db, deps.clock);
  const templates = new TemplateService(db);
  const outcomes = new ReplyOutcomes(db);
  const config = new ChatbotConfigService({ db, state, builtins, commands, ...(deps.clock ? { clock: deps.clock } : {}), log });
  registerDefaultBuiltins(builtins, { commands, quotes, platform, state, config });

  const effectDeps: ChatbotEffectDeps = {
    state,
    builtins,
    outcomes,
    filters,
    platform,
    urlfetch: (url) => urlFetch(url, deps.urlFetchOptions),
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.onCommandUsed ? { onCommandUsed: deps.onCommandUsed } : {}),
    log,
  };
  const timerJob = new TimerJob({
    timers,
    state,
    platform,
    effects: effectDeps,
    log,
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.timerIntervalMs ? { intervalMs: deps.timerIntervalMs } : {}),
    ...(deps.owns ? { owns: deps.owns } : {}),
  });
  let staffTimer: NodeJS.Timeout | null = null;
  let pruneTimer: NodeJS.Timeout | null = null;
  const prune = () =>
    void outcomes
      .prune(new Date((deps.clock ?? Date.now)() - REPLY_OUTCOMES_KEPT_MS))
      .catch((error: unknown) => log.warn({ err: error }, 'pruning chatbot reply outcomes failed'));
  let staffReload: Promise<void> | null = null;
  const staffChanged = () => {
    staffReload ??= state
      .reloadStaff()
      .catch((error: unknown) => log.warn({ err: error }, 'reloading chatbot staff failed'))
      .finally(() => {
        staffReload = null;
      });
  };

  return {
    state,
    builtins,
    commands,
    timers,
    filters,
    quotes,
    templates,
    outcomes,
    config,
    stages: [createFilterStage(state, deps.capabilities), createCommandStage(state, builtins, deps.random)],
    effectHandlers: [createReplyHandler(effectDeps), createFilterHandler(effectDeps)],
    timerJob,
    staffChanged,
    async start() {
      const added = await commands.addMissingBuiltins();
      if (added > 0) log.info({ commands: added }, 'built-in commands added to existing channels');
      const loaded = await state.loadAll();
      log.info({ channels: loaded }, 'chatbot loaded');
      timerJob.start();
      // Staff roles change in another module; their chat identities are re-read every minute.
      staffTimer = setInterval(staffChanged, 60_000);
      staffTimer.unref();
      pruneTimer = setInterval(prune, 60 * 60_000);
      pruneTimer.unref();
    },
    async stop() {
      if (staffTimer) clearInterval(staffTimer);
      if (pruneTimer) clearInterval(pruneTimer);
      for (const bot of [...state.loaded()]) state.forget(bot.channelId);
      await timerJob.stop();
      await staffReload;
    },
  };
}
