import { useEffect, useState } from 'react';
import {
  widgetSettingsSchemas,
  type AlertsSettings,
  type ChatBoxSettings,
  type EmoteWallSettings,
  type EventListSettings,
  type GiveawayWidgetSettings,
  type GoalSettings,
  type NowPlayingSettings,
  type QueueWidgetSettings,
  type WidgetType,
} from '@greenroom/contracts/api/widgets';
import type { WidgetConnection } from '../hooks/use-widget-connection';
import { AlertBox } from './alert-box';
import { ChatBox } from './chat-box';
import { EmoteWall } from './emote-wall';
import { EventList } from './event-list';
import { GiveawayWidget } from './giveaway-widget';
import { GoalBar } from './goal-bar';
import { NowPlayingWidget } from './now-playing-widget';
import { QueueWidget } from './queue-widget';
import classes from './widgets.module.css';

/**
 * A widget drawn at its own size from its settings and its live connection. The public page follows the settings the
 * server pushes; the editor's preview passes the form's values instead (`settings`), so changes show as you type.
 */
export function WidgetView({
  type,
  connection,
  settings: override,
}: {
  type: WidgetType;
  connection: WidgetConnection;
  settings?: Record<string, unknown>;
}) {
  const [pushed, setPushed] = useState<Record<string, unknown> | null>(null);
  const { snapshot, subscribe } = connection;
  useEffect(() => {
    setPushed(null);
  }, [snapshot]);
  useEffect(() => subscribe((frame) => frame.type === 'settings' && setPushed(frame.data)), [subscribe]);

  const raw = override ?? pushed ?? snapshot?.settings;
  // Settings half-typed in the editor may not be valid yet: keep showing the last valid ones.
  const [valid, setValid] = useState<Record<string, unknown> | null>(null);
  useEffect(() => {
    const parsed = raw ? widgetSettingsSchemas[type].safeParse(raw) : null;
    if (parsed?.success) setValid(parsed.data);
  }, [raw, type]);
  if (!valid) return null;

  const s = valid as { width: number; height: number; font_size: number; text_color: string };
  return (
    <div
      className={classes.frame}
      style={{ width: s.width, height: s.height, fontSize: s.font_size, color: s.text_color }}
      data-widget-type={type}
      data-state={connection.status}
    >
      {type === 'alerts' && <AlertBox settings={valid as AlertsSettings} connection={connection} />}
      {type === 'chat' && <ChatBox settings={valid as ChatBoxSettings} connection={connection} />}
      {type === 'events' && <EventList settings={valid as EventListSettings} connection={connection} />}
      {type === 'goal' && <GoalBar settings={valid as GoalSettings} connection={connection} />}
      {type === 'giveaway' && <GiveawayWidget settings={valid as GiveawayWidgetSettings} connection={connection} />}
      {type === 'queue' && <QueueWidget settings={valid as QueueWidgetSettings} connection={connection} />}
      {type === 'emotes' && <EmoteWall settings={valid as EmoteWallSettings} connection={connection} />}
      {type === 'spotify' && <NowPlayingWidget settings={valid as NowPlayingSettings} connection={connection} />}
    </div>
  );
}
