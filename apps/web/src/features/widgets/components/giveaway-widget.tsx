import { IconGift, IconTrophy } from '@tabler/icons-react';
import { useEffect, useState, type CSSProperties } from 'react';
import type { GiveawayWidgetSettings, PublicGiveaway } from '@greenroom/contracts/api/widgets';
import { ProviderIcon } from '../../../components/provider-icon';
import type { WidgetConnection } from '../hooks/use-widget-connection';
import classes from './widgets.module.css';

/** h:mm:ss or m:ss left until `at`. */
function timeLeft(at: string, now: number): string {
  const s = Math.max(0, Math.ceil((Date.parse(at) - now) / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

function howToEnter(g: PublicGiveaway): string {
  return g.entry_mode === 'keyword'
    ? `Type ${g.keyword} in chat to enter`
    : `Type ${g.keyword} to buy tickets (${g.ticket_cost} points each)`;
}

/** The channel's giveaway: how to enter and the entries while open, then the winners once drawn. */
export function GiveawayWidget({ settings, connection }: { settings: GiveawayWidgetSettings; connection: WidgetConnection }) {
  const [giveaway, setGiveaway] = useState<PublicGiveaway | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const { snapshot, subscribe } = connection;

  useEffect(() => {
    if (snapshot) setGiveaway(snapshot.giveaway);
  }, [snapshot]);
  useEffect(
    () =>
      subscribe((frame) => {
        if (frame.type !== 'giveaway') return;
        const g = frame.data;
        // A new giveaway opening replaces the shown one; drafts and cancelled ones are not shown.
        if (g.status === 'draft' || g.status === 'cancelled') setGiveaway((shown) => (shown?.id === g.id ? null : shown));
        else setGiveaway(g);
      }),
    [subscribe],
  );
  const closesAt = giveaway?.status === 'open' ? giveaway.closes_at : null;
  useEffect(() => {
    if (!closesAt) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [closesAt]);

  if (!giveaway) return null;
  const winners = giveaway.winners.filter((w) => w.status !== 'expired');
  const icon = Math.round(settings.font_size * 1.2);
  return (
    <section
      className={classes.giveaway}
      aria-label="Giveaway"
      data-status={giveaway.status}
      style={{ '--widget-accent': settings.accent_color } as CSSProperties}
    >
      <div className={classes.giveawayTitle}>
        <IconGift size={icon} color={settings.accent_color} aria-hidden />
        <span>{giveaway.title}</span>
      </div>
      {giveaway.status === 'open' && (
        <>
          {settings.show_how_to_enter && <div className={classes.giveawayLine}>{howToEnter(giveaway)}</div>}
          <div className={classes.giveawayLine}>
            {settings.show_entries && (
              <span data-testid="giveaway-entries">
                {giveaway.entry_count} {giveaway.entry_count === 1 ? 'entry' : 'entries'}
              </span>
            )}
            {closesAt && <span className={classes.giveawayTimer}> · closes in {timeLeft(closesAt, now)}</span>}
          </div>
        </>
      )}
      {giveaway.status === 'closed' && (
        <div className={classes.giveawayLine}>
          Entries closed{settings.show_entries ? ` · ${giveaway.entry_count} ${giveaway.entry_count === 1 ? 'entry' : 'entries'}` : ''}
        </div>
      )}
      {giveaway.status === 'drawn' && winners.length > 0 && (
        <ol className={classes.giveawayWinners} aria-label="Winners">
          {winners.map((w) => (
            <li key={`${w.place}-${w.display_name}`} className={classes.giveawayWinner}>
              <IconTrophy size={icon} color={settings.accent_color} aria-hidden />
              <ProviderIcon provider={w.provider} size={Math.round(settings.font_size * 0.9)} />
              <span>{w.display_name}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
