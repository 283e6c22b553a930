/**
 * The timer job: every few seconds, the due timers of every channel. A due timer fires when the
 * channel had at least its minimum chat lines since the timer last ran (counted in memory by the
 * command stage) and, for online-only timers, a platform is live; otherwise it is looked at again a
 * minute later. A run is claimed in the database before anything is sent (see TimerService.claim),
 * so it fires once per interval across restarts and workers. Its message (in turn) goes to every
 * connected platform that has chat write and that the timer allows (only live ones when online-only).
 */
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import type { ChatbotPlatform } from './chatbot-platform';
import type { ChatbotState } from './chatbot-state';
import { parseTemplate, renderTemplateAsync } from './domain/template';
import { resolveVariable } from './domain/variables';
import { fitMessage, replyContext, type ChatbotEffectDeps } from './effects';
import type { TimerService } from './timer-service';

export class TimerJob {
  /** The channel's line count when each timer last ran in this process. */
  private readonly marks = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      timers: TimerService;
      state: ChatbotState;
      platform: ChatbotPlatform;
      effects: ChatbotEffectDeps;
      log: { warn(obj: object, msg?: string): void; info?(obj: object, msg?: string): void };
      clock?: () => number;
      intervalMs?: number;
      /** Whether this instance holds the channel (several instances); default: every channel. */
      owns?: (channelId: string) => boolean;
    },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.deps.intervalMs ?? 5_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass over the due timers (one pass at a time). */
  tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.pass()
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'timer pass failed'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async pass(): Promise<void> {
    const owns = this.deps.owns;
    for (const timer of await this.deps.timers.due()) {
      // Chat lines are counted where the channel's pipeline runs: the instance holding it.
      if (owns && !owns(timer.channelId)) continue;
      try {
        await this.consider(timer);
      } catch (error) {
        this.deps.log.warn({ err: error, timerId: timer.id }, 'timer run failed');
      }
    }
  }

  private async consider(timer: Awaited<ReturnType<TimerService['due']>>[number]): Promise<void> {
    const bot = await this.deps.state.ensure(timer.channelId);
    // Lines are counted in memory: after a restart, the lines since the restart count.
    const lines = bot.lines - (this.marks.get(timer.id) ?? 0);
    const connections = (await this.deps.platform.connections(timer.channelId)).filter(
      (c) =>
        providers[c.provider].chatWrite &&
        (timer.platforms.length === 0 || timer.platforms.includes(c.provider)) &&
        (!timer.onlineOnly || c.isLive),
    );
    const fire = lines >= timer.minLines && connections.length > 0 && timer.messages.length > 0;
    const claimed = await this.deps.timers.claim(timer, fire);
    if (!claimed || !fire) return;
    this.marks.set(timer.id, bot.lines);
    const message = timer.messages[timer.nextIndex % timer.messages.length]!;
    const template = parseTemplate(message);
    await Promise.all(
      connections.map(async (c) => {
        try {
          const ctx = await replyContext(this.deps.effects, timer.channelId, {
            channelProviderId: c.id,
            provider: c.provider,
            user: { providerUserId: '', login: c.name, displayName: c.name },
            args: [],
            query: '',
            now: this.deps.clock?.() ?? Date.now(),
          });
          const text = (await renderTemplateAsync(template, resolveVariable, ctx)).trim();
          if (text) await this.deps.platform.send(c.id, { text: fitMessage(text, providers[c.provider].chatMessageMaxLength ?? 500) });
        } catch (error) {
          this.deps.log.warn({ err: error, timerId: timer.id, provider: c.provider satisfies ChannelProviderId }, 'timer message not sent');
        }
      }),
    );
  }
}
