import {
  IconBolt,
  IconCoin,
  IconDiamond,
  IconGift,
  IconHeart,
  IconMessageDollar,
  IconStar,
  IconSticker,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { renderAlertTemplate, type AlertsSettings, type AlertTypeSettings, type WidgetEvent } from '@greenroom/contracts/api/widgets';
import { providers } from '@greenroom/contracts/providers';
import { AlertQueue, alertSettingsFor } from '../hooks/alert-queue';
import type { WidgetConnection } from '../hooks/use-widget-connection';
import classes from './widgets.module.css';

/** The pause between two alerts, so one has left before the next comes in. */
const GAP_MS = 600;
/** The longest message read aloud. */
const TTS_MAX_CHARS = 300;

export function EventIcon({ type, size }: { type: WidgetEvent['type']; size: number }) {
  switch (type) {
    case 'follow':
      return <IconHeart size={size} aria-hidden />;
    case 'sub':
    case 'resub':
    case 'membership':
      return <IconStar size={size} aria-hidden />;
    case 'gift':
    case 'membership_gift':
    case 'tiktok_gift':
      return <IconGift size={size} aria-hidden />;
    case 'raid':
      return <IconUsersGroup size={size} aria-hidden />;
    case 'cheer':
      return <IconDiamond size={size} aria-hidden />;
    case 'superchat':
      return <IconMessageDollar size={size} aria-hidden />;
    case 'supersticker':
      return <IconSticker size={size} aria-hidden />;
    case 'kicks':
      return <IconCoin size={size} aria-hidden />;
    default:
      return <IconBolt size={size} aria-hidden />;
  }
}

/** Plays the alert's sound, then reads the viewer's message aloud when the alert asks for it; stops when it leaves. */
function useAlertAudio(event: WidgetEvent, alert: AlertTypeSettings): void {
  useEffect(() => {
    let stopped = false;
    const speech = typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : null;
    const speak = () => {
      if (stopped || !alert.tts || !event.message || !speech) return;
      const utterance = new SpeechSynthesisUtterance(event.message.slice(0, TTS_MAX_CHARS));
      utterance.volume = alert.volume / 100;
      speech.speak(utterance);
    };
    let audio: HTMLAudioElement | null = null;
    if (alert.sound_url) {
      audio = new Audio(alert.sound_url);
      audio.volume = alert.volume / 100;
      audio.addEventListener('ended', speak, { once: true });
      // A sound that cannot play (deleted, autoplay refused) does not hold the message back.
      audio.addEventListener('error', speak, { once: true });
      audio.play().catch(speak);
    } else speak();
    return () => {
      stopped = true;
      audio?.pause();
      if (alert.tts) speech?.cancel();
    };
  }, [event, alert]);
}

function AlertCard({ event, alert, settings }: { event: WidgetEvent; alert: AlertTypeSettings; settings: AlertsSettings }) {
  useAlertAudio(event, alert);
  const [imageFailed, setImageFailed] = useState(false);
  const text = renderAlertTemplate(alert.template, event, providers[event.provider].name);
  // The name stands out in the accent colour wherever the template puts it.
  const at = event.name ? text.indexOf(event.name) : -1;
  const title =
    at < 0 ? (
      text
    ) : (
      <>
        {text.slice(0, at)}
        <span className={classes.alertName}>{event.name}</span>
        {text.slice(at + event.name.length)}
      </>
    );
  const style = {
    '--alert-leave': `${Math.max(0, alert.duration_seconds * 1000 - 400)}ms`,
    '--alert-accent': settings.accent_color,
  } as CSSProperties;
  return (
    <div
      className={classes.alert}
      style={style}
      data-alert-id={event.id}
      data-alert-type={event.type}
      data-sound={alert.sound_url ?? undefined}
    >
      {alert.image_url && !imageFailed ? (
        <img
          className={classes.alertImage}
          src={alert.image_url}
          alt=""
          style={{ maxHeight: Math.round(settings.height * 0.6) }}
          onError={() => setImageFailed(true)}
        />
      ) : (
        <span className={classes.alertIcon} style={{ color: settings.accent_color }}>
          <EventIcon type={event.type} size={Math.round(settings.font_size * 1.8)} />
        </span>
      )}
      <div className={classes.alertTitle}>{title}</div>
      {settings.show_message && event.message && <div className={classes.alertMessage}>{event.message}</div>}
    </div>
  );
}

/** One alert at a time, each for its type's duration; alerts that arrive meanwhile wait their turn. */
export function AlertBox({ settings, connection }: { settings: AlertsSettings; connection: WidgetConnection }) {
  const queue = useRef(new AlertQueue());
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const [current, setCurrent] = useState<{ event: WidgetEvent; alert: AlertTypeSettings } | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(
    () =>
      connection.subscribe((frame) => {
        if (frame.type !== 'event' || !alertSettingsFor(settingsRef.current, frame.data)) return;
        if (queue.current.push(frame.data)) setTick((n) => n + 1);
      }),
    [connection],
  );

  // An alert leaves after its duration, then the stage stays empty for a short gap.
  useEffect(() => {
    if (!current) return undefined;
    const timer = setTimeout(() => setCurrent(null), current.alert.duration_seconds * 1000 + GAP_MS);
    return () => clearTimeout(timer);
  }, [current]);

  // The next alert comes in when the stage is free.
  useEffect(() => {
    if (current) return;
    for (let next = queue.current.shift(); next; next = queue.current.shift()) {
      // Settings may have changed while it waited.
      const alert = alertSettingsFor(settingsRef.current, next);
      if (alert) {
        setCurrent({ event: next, alert });
        return;
      }
    }
  }, [current, tick]);

  return (
    <div className={classes.alertStage} role="status" aria-live="polite" aria-label="Alerts" data-queued={queue.current.length}>
      {current && <AlertCard key={current.event.id} event={current.event} alert={current.alert} settings={settings} />}
    </div>
  );
}
