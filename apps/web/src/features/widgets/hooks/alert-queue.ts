import {
  alertAmount,
  alertTypeSchema,
  type AlertsSettings,
  type AlertTypeSettings,
  type WidgetEvent,
} from '@greenroom/contracts/api/widgets';

/** The settings of an event's alert when the alert box shows it: enabled and at least its minimum; else null. */
export function alertSettingsFor(settings: AlertsSettings, event: WidgetEvent): AlertTypeSettings | null {
  const type = alertTypeSchema.safeParse(event.type);
  if (!type.success) return null;
  const s = settings.alerts[type.data];
  if (!s?.enabled) return null;
  if (s.min_amount > 0 && alertAmount(event) < s.min_amount) return null;
  return s;
}

/**
 * The alerts waiting to be shown, one at a time and in arrival order. An id seen before is ignored (a replay after a
 * reconnect), so an alert is never shown twice; the memory of ids is bounded.
 */
export class AlertQueue {
  private readonly waiting: WidgetEvent[] = [];
  private readonly seen = new Set<string>();
  private readonly order: string[] = [];

  constructor(private readonly memory = 500) {}

  /** Queues an event; false when it was seen before. */
  push(event: WidgetEvent): boolean {
    if (this.seen.has(event.id)) return false;
    this.seen.add(event.id);
    this.order.push(event.id);
    if (this.order.length > this.memory) this.seen.delete(this.order.shift()!);
    this.waiting.push(event);
    return true;
  }

  shift(): WidgetEvent | undefined {
    return this.waiting.shift();
  }

  get length(): number {
    return this.waiting.length;
  }
}
