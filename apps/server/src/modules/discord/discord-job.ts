import type { DiscordService } from './discord-service';

/** Runs `sync()` every 30 s and within a second of a connection going live or offline (coalesced; one at a time). */
export class DiscordJob {
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly service: DiscordService,
    private readonly log: { error(obj: object, msg?: string): void },
    private readonly everyMs = 30_000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.run(), this.everyMs);
    this.timer.unref();
    this.run();
  }

  /** A connection's live state changed. */
  changed(): void {
    if (!this.timer || this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      this.run();
    }, 1_000);
    this.soon.unref();
  }

  private run(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.service
      .sync()
      .catch((error: unknown) => this.log.error({ err: error }, 'Discord announcements failed'))
      .finally(() => {
        this.running = null;
        if (this.again && this.timer) {
          this.again = false;
          this.run();
        }
      });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.timer = null;
    this.soon = null;
    await this.running;
  }
}
