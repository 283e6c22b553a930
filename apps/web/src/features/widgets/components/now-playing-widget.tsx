import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { IconBrandSpotify, IconMusic, IconPlayerPauseFilled } from '@tabler/icons-react';
import type { NowPlaying } from '@greenroom/contracts/api/spotify';
import type { NowPlayingSettings } from '@greenroom/contracts/api/widgets';
import type { WidgetConnection } from '../hooks/use-widget-connection';
import { nowPlayingView, progressAt, trackTime } from '../lib/now-playing';
import classes from './widgets.module.css';

/** After a track should have ended, the page asks again (at most this often) in case no change was pushed yet. */
const ASK_AGAIN_MS = 5_000;

/**
 * Spotify now playing: the cover, the title, the artists and the progress of what the channel's Spotify plays,
 * replaced live when the server pushes a change (`now_playing`), the progress moving on in the page between them.
 */
export function NowPlayingWidget({ settings, connection }: { settings: NowPlayingSettings; connection: WidgetConnection }) {
  const { snapshot, subscribe, refresh } = connection;
  const [now, setNow] = useState<NowPlaying | null>(null);
  const [clockOffset, setClockOffset] = useState(0);
  const [localNow, setLocalNow] = useState(() => Date.now());
  const askedAt = useRef(0);

  useEffect(() => {
    if (!snapshot) return;
    setNow(snapshot.now_playing);
    setClockOffset(Date.parse(snapshot.server_time) - Date.now());
  }, [snapshot]);
  useEffect(() => subscribe((frame) => frame.type === 'now_playing' && setNow(frame.data)), [subscribe]);

  const ticking = now?.state === 'playing' && now.is_playing;
  useEffect(() => {
    if (!ticking) return undefined;
    const timer = setInterval(() => setLocalNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);

  const progress = progressAt(now, localNow, clockOffset);
  const ended = ticking && now?.state === 'playing' && progress >= now.track.duration_ms;
  useEffect(() => {
    if (!ended || localNow - askedAt.current < ASK_AGAIN_MS) return;
    askedAt.current = localNow;
    refresh();
  }, [ended, localNow, refresh]);

  const view = nowPlayingView(now, settings);
  const style = { '--widget-accent': settings.accent_color } as CSSProperties;
  if (view.kind === 'nothing') return null;
  if (view.kind === 'idle') {
    return (
      <section className={classes.nowPlaying} data-background={settings.show_background} data-idle aria-label="Now playing" style={style}>
        <div className={classes.nowPlayingIdle}>
          <IconBrandSpotify size="1.2em" aria-hidden className={classes.nowPlayingBrand} />
          <span>{view.text}</span>
        </div>
      </section>
    );
  }
  const { track, playing } = view;
  const duration = track.duration_ms;
  return (
    <section
      key={track.id}
      className={classes.nowPlaying}
      data-background={settings.show_background}
      data-playing={playing}
      data-track-id={track.id}
      aria-label="Now playing"
      style={style}
    >
      {settings.show_album_art && <AlbumArt url={track.image_url} />}
      <div className={classes.nowPlayingText}>
        <div className={classes.nowPlayingTitle}>
          <IconBrandSpotify size="1em" aria-hidden className={classes.nowPlayingBrand} />
          <span data-testid="now-playing-title">{track.name}</span>
        </div>
        <div className={classes.nowPlayingArtists} data-testid="now-playing-artists">
          {track.artists.join(', ')}
        </div>
        {settings.show_album && track.album && <div className={classes.nowPlayingAlbum}>{track.album}</div>}
        {settings.show_progress && (
          <div className={classes.nowPlayingProgress}>
            {!playing && <IconPlayerPauseFilled size="0.9em" aria-label="Paused" />}
            <span className={classes.nowPlayingTime}>{trackTime(progress)}</span>
            <div
              className={classes.nowPlayingTrack}
              role="progressbar"
              aria-label="Track progress"
              aria-valuemin={0}
              aria-valuemax={Math.round(duration / 1000)}
              aria-valuenow={Math.round(progress / 1000)}
            >
              <div className={classes.nowPlayingFill} style={{ width: `${Math.min(100, (progress / Math.max(1, duration)) * 100)}%` }} />
            </div>
            <span className={classes.nowPlayingTime}>{trackTime(duration)}</span>
          </div>
        )}
        {!settings.show_progress && !playing && (
          <div className={classes.nowPlayingAlbum}>
            <IconPlayerPauseFilled size="0.9em" aria-hidden /> Paused
          </div>
        )}
      </div>
    </section>
  );
}

/** The album cover, or a music note when there is none or it does not load (OBS shows no broken image). */
function AlbumArt({ url }: { url: string | null }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!url || failed === url)
    return (
      <div className={classes.nowPlayingArt} data-placeholder="true" aria-hidden>
        <IconMusic size="50%" />
      </div>
    );
  return <img className={classes.nowPlayingArt} src={url} alt="" onError={() => setFailed(url)} />;
}
