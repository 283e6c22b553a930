import { useEffect, useState } from 'react';
import { IconCircleCheckFilled } from '@tabler/icons-react';
import { goalIncrement, POINTS_GOAL_REFRESH_MS, type GoalSettings } from '@greenroom/contracts/api/widgets';
import type { WidgetConnection } from '../hooks/use-widget-connection';
import classes from './widgets.module.css';

/** A progress bar toward a target; automatic goals move with each follow or sub as it arrives. */
export function GoalBar({ settings, connection }: { settings: GoalSettings; connection: WidgetConnection }) {
  const { snapshot, subscribe, refresh } = connection;
  const [current, setCurrent] = useState(0);
  const kind = settings.kind;

  useEffect(() => {
    if (snapshot?.goal_current != null) setCurrent(snapshot.goal_current);
  }, [snapshot]);

  useEffect(
    () =>
      subscribe((frame) => {
        if (frame.type === 'goal.current') setCurrent(frame.data.current);
        else if (frame.type === 'event' && !frame.data.test && !frame.data.replay) {
          const add = goalIncrement(kind, frame.data);
          if (add) setCurrent((n) => n + add);
        }
      }),
    [subscribe, kind],
  );

  // Points are earned by chatting and watching, not by events: the count is read again every few seconds.
  useEffect(() => {
    if (kind !== 'points') return undefined;
    const timer = setInterval(refresh, POINTS_GOAL_REFRESH_MS);
    return () => clearInterval(timer);
  }, [kind, refresh]);

  const shown = kind === 'custom' ? settings.start_value : current;
  const percent = Math.max(0, Math.min(100, (shown / Math.max(1, settings.target)) * 100));
  const reached = shown >= settings.target;
  return (
    <div className={classes.goal} data-complete={reached}>
      <div className={classes.goalHead}>
        <span>{settings.title}</span>
        <span data-testid="goal-count">
          {reached && <IconCircleCheckFilled size="1em" aria-label="Goal reached" className={classes.goalReached} />}
          {shown.toLocaleString('en-US')} / {settings.target.toLocaleString('en-US')}
        </span>
      </div>
      <div
        className={classes.goalTrack}
        role="progressbar"
        aria-label={settings.title}
        aria-valuemin={0}
        aria-valuemax={settings.target}
        aria-valuenow={shown}
      >
        <div className={classes.goalFill} style={{ width: `${percent}%`, background: settings.bar_color }} />
      </div>
    </div>
  );
}
