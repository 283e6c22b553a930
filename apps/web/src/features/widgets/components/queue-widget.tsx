import { useEffect, useState, type CSSProperties } from 'react';
import type { PublicQueue, QueueWidgetSettings } from '@greenroom/contracts/api/widgets';
import { ProviderIcon } from '../../../components/provider-icon';
import type { WidgetConnection } from '../hooks/use-widget-connection';
import classes from './widgets.module.css';

/** The viewer queue: its name, whether it is open, and who is next, live as viewers join and are picked. */
export function QueueWidget({ settings, connection }: { settings: QueueWidgetSettings; connection: WidgetConnection }) {
  const [queue, setQueue] = useState<PublicQueue | null>(null);
  const { snapshot, subscribe } = connection;

  useEffect(() => {
    if (snapshot) setQueue(snapshot.queue);
  }, [snapshot]);
  useEffect(
    () =>
      subscribe((frame) => {
        if (frame.type === 'queue') {
          const q = frame.data;
          // The shown queue follows its changes; another queue takes its place when it opens.
          setQueue((shown) => (!shown || shown.id === q.id || q.status === 'open' ? q : shown));
        } else if (frame.type === 'queue.removed') {
          const { id } = frame.data;
          setQueue((shown) => (shown?.id === id ? null : shown));
        }
      }),
    [subscribe],
  );

  if (!queue) return null;
  const shown = queue.entries.slice(0, settings.max_entries);
  const more = queue.size - shown.length;
  return (
    <section
      className={classes.queue}
      aria-label="Viewer queue"
      data-status={queue.status}
      style={{ '--widget-accent': settings.accent_color } as CSSProperties}
    >
      <div className={classes.queueHeader}>
        <span className={classes.queueName}>{queue.name}</span>
        <span className={classes.queueStatus}>
          {queue.status === 'open' ? `${queue.size} waiting` : queue.status === 'paused' ? 'Paused' : 'Closed'}
        </span>
      </div>
      <ol className={classes.queueList} aria-label="Next up">
        {shown.map((e) => (
          <li key={`${e.position}-${e.display_name}`} className={classes.queueRow}>
            <span className={classes.queuePosition}>{e.position}</span>
            {settings.show_platform_icons && <ProviderIcon provider={e.provider} size={Math.round(settings.font_size * 0.9)} />}
            <span className={classes.queueViewer}>{e.display_name}</span>
          </li>
        ))}
      </ol>
      {more > 0 && <div className={classes.queueMore}>+{more} more</div>}
    </section>
  );
}
