/**
 * Runs the registered stages (see stage.ts) on one message or activity: moderation stages, then —
 * unless one filtered the message — command stages, each in registration order. What a stage
 * decides (a filter verdict, effects) is kept only when it returns normally: a stage that throws is
 * isolated — its output for that message is discarded, the error is counted and logged with the
 * stage's name (at most once per stage every 10 s, with the count since), and the message flows on.
 */
import type { Activity } from '@greenroom/contracts/api/events';
import type { ChatStage, PipelineEffect, StageMessage } from './stage';

export interface StageOutcome {
  filter: { stage: string; reason: string } | null;
  effects: PipelineEffect[];
}

export interface StageRunnerLog {
  error(obj: object, msg?: string): void;
}

const LOG_EVERY_MS = 10_000;
const none: StageOutcome = { filter: null, effects: [] };

export class StageRunner {
  private moderation: ChatStage[] = [];
  private command: ChatStage[] = [];
  private withActivity: ChatStage[] = [];
  private readonly failures = new Map<string, { count: number; sinceLog: number; loggedAt: number }>();
  readonly stats = { stageErrors: 0 };

  constructor(private readonly log: StageRunnerLog) {}

  add(stage: ChatStage): void {
    if ([...this.moderation, ...this.command].some((s) => s.name === stage.name))
      throw new Error(`A pipeline stage named "${stage.name}" is already registered`);
    if (stage.phase === 'moderation') this.moderation = [...this.moderation, stage];
    else this.command = [...this.command, stage];
    if (stage.onActivity) this.withActivity = [...this.withActivity, stage];
  }

  get size(): number {
    return this.moderation.length + this.command.length;
  }

  /** Errors of one stage so far (tests, diagnostics). */
  errorsOf(name: string): number {
    return this.failures.get(name)?.count ?? 0;
  }

  onMessage(input: StageMessage): StageOutcome {
    if (this.moderation.length === 0 && this.command.length === 0) return none;
    let filter: StageOutcome['filter'] = null;
    const effects: PipelineEffect[] = [];
    for (const stage of this.moderation) {
      filter = this.runOne(stage, input, effects);
      if (filter) return { filter, effects };
    }
    for (const stage of this.command) this.runOne(stage, input, effects);
    return { filter, effects };
  }

  onActivity(activity: Activity, now: number): PipelineEffect[] {
    if (this.withActivity.length === 0) return none.effects;
    const effects: PipelineEffect[] = [];
    for (const stage of this.withActivity) {
      const mine: PipelineEffect[] = [];
      try {
        stage.onActivity!(activity, now, { effect: (e) => void mine.push(e) });
        effects.push(...mine);
      } catch (error) {
        this.failed(stage, error, activity.id);
      }
    }
    return effects;
  }

  /** Runs one stage; its effects join `effects` only if it returned normally. Returns its filter verdict. */
  private runOne(stage: ChatStage, input: StageMessage, effects: PipelineEffect[]): StageOutcome['filter'] {
    let verdict: StageOutcome['filter'] = null;
    const mine: PipelineEffect[] = [];
    try {
      stage.onMessage(input, {
        filter: (v) => {
          // Only moderation stages may filter; the first verdict wins.
          if (stage.phase === 'moderation') verdict ??= { stage: v.stage || stage.name, reason: v.reason };
        },
        effect: (e) => void mine.push(e),
      });
    } catch (error) {
      this.failed(stage, error, input.message.id);
      return null;
    }
    effects.push(...mine);
    return verdict;
  }

  private failed(stage: ChatStage, error: unknown, subjectId: string): void {
    this.stats.stageErrors++;
    const now = Date.now();
    let f = this.failures.get(stage.name);
    if (!f) this.failures.set(stage.name, (f = { count: 0, sinceLog: 0, loggedAt: 0 }));
    f.count++;
    f.sinceLog++;
    if (now - f.loggedAt < LOG_EVERY_MS) return;
    try {
      this.log.error({ err: error, stage: stage.name, subject: subjectId, errors: f.sinceLog, total: f.count }, 'pipeline stage failed');
    } catch {
      // Logging must not break the pipeline.
    }
    f.loggedAt = now;
    f.sinceLog = 0;
  }
}
