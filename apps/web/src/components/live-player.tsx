import { AspectRatio } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ErrorAlert } from './error-alert';

interface TwitchEmbedOptions {
  channel: string;
  parent: string[];
  width: string;
  height: string;
  autoplay: boolean;
  muted: boolean;
  layout: 'video';
}
declare global {
  interface Window {
    Twitch?: { Embed: new (target: string | HTMLElement, options: TwitchEmbedOptions) => unknown };
  }
}

const scripts = new Map<string, Promise<void>>();

/** Loads a script once per page (the Twitch embed script). */
export function loadScript(src: string): Promise<void> {
  let loading = scripts.get(src);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        scripts.delete(src);
        script.remove();
        reject(new Error('The Twitch player could not be loaded.'));
      };
      document.head.appendChild(script);
    });
    scripts.set(src, loading);
  }
  return loading;
}

/**
 * The Twitch player through Twitch's embed script: `parent` is this page's host name (Twitch refuses to play in a
 * frame whose parent it was not told), autoplaying muted (browsers block autoplay with sound).
 */
export function TwitchPlayer({ channel, script }: { channel: string; script: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let cancelled = false;
    const target = ref.current;
    loadScript(script)
      .then(() => {
        if (cancelled || !target || !window.Twitch) return;
        target.replaceChildren();
        new window.Twitch.Embed(target, {
          channel,
          parent: [window.location.hostname],
          width: '100%',
          height: '100%',
          autoplay: true,
          muted: true,
          layout: 'video',
        });
      })
      .catch((e: unknown) => !cancelled && setError(e));
    return () => {
      cancelled = true;
      target?.replaceChildren();
    };
  }, [channel, script]);
  if (error) return <ErrorAlert error={error} />;
  return (
    <AspectRatio ratio={16 / 9}>
      <div ref={ref} data-testid="twitch-embed" style={{ background: 'var(--mantine-color-dark-8)' }} />
    </AspectRatio>
  );
}

/** A platform's player page in a 16:9 frame (YouTube embed, Kick player). */
export function PlayerFrame({ src, title }: { src: string; title: string }) {
  return (
    <AspectRatio ratio={16 / 9}>
      <iframe
        src={src}
        title={title}
        allow="autoplay; fullscreen; encrypted-media; picture-in-picture"
        allowFullScreen
        style={{ border: 0 }}
      />
    </AspectRatio>
  );
}
