import { memo, useEffect, useState, type CSSProperties } from 'react';
import type { EventListSettings, WidgetEvent } from '@greenroom/contracts/api/widgets';
import type { WidgetConnection } from '../hooks/use-widget-connection';
import { EventIcon } from './alert-box';
import classes from './widgets.module.css';

const tierNames: Record<string, string> = { '1000': 'Tier 1', '2000': 'Tier 2', '3000': 'Tier 3' };

/** What an event list row says after the name. */
export function describeEvent(e: WidgetEvent): string {
  const tier = e.tier ? (tierNames[e.tier] ?? e.tier) : null;
  switch (e.type) {
    case 'follow':
      return 'followed';
    case 'sub':
      return tier ? `subscribed (${tier})` : 'subscribed';
    case 'resub':
      return `resubscribed · ${e.months ?? 1} months`;
    case 'gift':
      return `gifted ${e.count ?? 1} subs`;
    case 'raid':
      return `raided with ${e.count ?? 0}`;
    case 'cheer':
      return `cheered ${e.amount ?? `${e.count ?? 0} bits`}`;
    case 'superchat':
      return `Super Chat ${e.amount ?? ''}`.trim();
    case 'supersticker':
      return `Super Sticker ${e.amount ?? ''}`.trim();
    case 'membership':
      return 'became a member';
    case 'membership_gift':
      return `gifted ${e.count ?? 1} memberships`;
    case 'kicks':
      return `sent ${e.amount ?? 'Kicks'}`;
    case 'tiktok_gift':
      return `sent ${e.amount ?? 'a gift'}`;
    default:
      return '';
  }
}

/**
 * One row. Memoised: a new event mounts its own row and leaves the others alone (an OBS scene may hold many widget
 * pages, each doing this work for every event).
 */
const EventRow = memo(function EventRow({ event, accent, icon }: { event: WidgetEvent; accent: string; icon: number }) {
  return (
    <li className={classes.eventRow} data-event-type={event.type}>
      <span style={{ color: accent, display: 'inline-flex' }}>
        <EventIcon type={event.type} size={icon} />
      </span>
      <span className={classes.eventName}>{event.name}</span>
      <span className={classes.eventWhat}>{describeEvent(event)}</span>
    </li>
  );
});

/** The latest events, newest first. */
export function EventList({ settings, connection }: { settings: EventListSettings; connection: WidgetConnection }) {
  const [events, setEvents] = useState<WidgetEvent[]>([]);
  const { snapshot, subscribe } = connection;

  useEffect(() => {
    if (snapshot) setEvents(snapshot.events);
  }, [snapshot]);

  useEffect(
    () =>
      subscribe((frame) => {
        if (frame.type !== 'event' || frame.data.replay) return;
        const e = frame.data;
        setEvents((list) => (list.some((x) => x.id === e.id) ? list : [e, ...list].slice(0, 50)));
      }),
    [subscribe],
  );

  const shown = events.filter((e) => (settings.types as string[]).includes(e.type)).slice(0, settings.max_events);
  const icon = Math.round(settings.font_size * 1.1);
  return (
    <ul className={classes.events} aria-label="Events" style={{ '--event-accent': settings.accent_color } as CSSProperties}>
      {shown.map((e) => (
        <EventRow key={e.id} event={e} accent={settings.accent_color} icon={icon} />
      ))}
    </ul>
  );
}
