import { useEffect, useRef, useState, type CSSProperties } from 'react';
import type { EmoteWallSettings } from '@greenroom/contracts/api/widgets';
import { segmentMessage } from '../../../lib/chat-segments';
import type { WidgetConnection } from '../hooks/use-widget-connection';
import classes from './widgets.module.css';

interface Flying {
  key: number;
  code: string;
  url: string;
  /** Where it starts, in percent of the width. */
  x: number;
  /** A little sideways drift, in px. */
  drift: number;
}

/** Emotes used in chat (platform, 7TV, BTTV), each floating up across the wall for a few seconds. */
export function EmoteWall({ settings, connection }: { settings: EmoteWallSettings; connection: WidgetConnection }) {
  const [flying, setFlying] = useState<Flying[]>([]);
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const next = useRef(0);
  const { subscribe } = connection;

  useEffect(
    () =>
      subscribe((frame) => {
        if (frame.type !== 'chat.message') return;
        const s = settingsRef.current;
        const m = frame.data;
        if (s.providers.length > 0 && !s.providers.includes(m.provider)) return;
        const emotes = segmentMessage(m.text, m.emotes)
          .filter((seg) => seg.kind === 'emote')
          .slice(0, s.per_message);
        if (emotes.length === 0) return;
        const added = emotes.map((e) => ({
          key: (next.current += 1),
          code: e.code,
          url: e.url,
          x: 5 + Math.random() * 85,
          drift: Math.round((Math.random() - 0.5) * 120),
        }));
        // The oldest leave first when the wall is full.
        setFlying((list) => [...list, ...added].slice(-s.max_on_screen));
      }),
    [subscribe],
  );

  const done = (key: number) => setFlying((list) => list.filter((f) => f.key !== key));
  return (
    <div
      className={classes.emoteWall}
      aria-label="Emote wall"
      role="img"
      style={{ '--emote-rise': `${settings.height + settings.emote_size}px` } as CSSProperties}
    >
      {flying.map((f) => (
        <img
          key={f.key}
          src={f.url}
          alt={f.code}
          data-emote={f.code}
          className={classes.emoteFlying}
          style={
            {
              left: `${f.x}%`,
              height: settings.emote_size,
              '--emote-drift': `${f.drift}px`,
              '--emote-duration': `${settings.duration_seconds}s`,
            } as CSSProperties
          }
          onAnimationEnd={() => done(f.key)}
          onError={() => done(f.key)}
        />
      ))}
    </div>
  );
}
