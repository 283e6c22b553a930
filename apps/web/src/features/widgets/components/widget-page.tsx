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
    // A dark colour scheme (the app's <meta name="color-scheme"> and :root rule) paints the canvas dark; OBS needs it
    // see-through, so the widget page uses the light scheme, whose canvas is transparent when nothing is painted.
    const meta = document.querySelector<HTMLMetaElement>('meta[name="color-scheme"]');
    const previous = {
      meta: meta?.content,
      html: html.getAttribute('style'),
      body: body.getAttribute('style'),
    };
    if (meta) meta.content = 'light';
    Object.assign(html.style, { background: 'transparent', colorScheme: 'light', overflow: 'hidden' });
    Object.assign(body.style, { background: 'transparent', overflow: 'hidden', margin: '0' });
    return () => {
      if (meta && previous.meta !== undefined) meta.content = previous.meta;
      if (previous.html === null) html.removeAttribute('style');
      else html.setAttribute('style', previous.html);
      if (previous.body === null) body.removeAttribute('style');
      else body.setAttribute('style', previous.body);
    };
  }, []);

  const { snapshot, status } = connection;
  return (
    <main aria-label="Widget" data-state={status}>
      {snapshot && status !== 'gone' && <WidgetView type={snapshot.type} connection={connection} />}
    </main>
  );
}
