import { useEffect } from 'react';
import { useWidgetConnection } from '../hooks/use-widget-connection';
import { WidgetView } from './widget-view';

/**
 * `/widget/{token}`: what OBS shows as a browser source. Transparent, no scrollbars, no sign-in, nothing but the
 * widget. An unknown or rotated URL shows nothing and stops retrying.
 */
export function WidgetPage({ token }: { token: string }) {
  const connection = useWidgetConnection(token);

  useEffect(() => {
    const { documentElement: html, body } = document;
    const previous = [html.style.background, body.style.background, html.style.colorScheme, html.style.overflow, body.style.overflow];
    html.style.background = 'transparent';
    body.style.background = 'transparent';
    // A dark color-scheme gives the canvas a dark backdrop; OBS needs it see-through.
    html.style.colorScheme = 'normal';
    html.style.overflow = 'hidden';
    body.style.overflow = 'hidden';
    return () => {
      [html.style.background, body.style.background, html.style.colorScheme, html.style.overflow, body.style.overflow] = previous as [
        string,
        string,
        string,
        string,
        string,
      ];
    };
  }, []);

  const { snapshot, status } = connection;
  return (
    <main aria-label="Widget" data-state={status}>
      {snapshot && status !== 'gone' && <WidgetView type={snapshot.type} connection={connection} />}
    </main>
  );
}
