import { useTransparentCanvas } from '../../../lib/use-transparent-canvas';
import { useWidgetConnection } from '../hooks/use-widget-connection';
import { WidgetView } from './widget-view';

/**
 * `/widget/{token}`: what OBS shows as a browser source. Transparent, no scrollbars, no sign-in, nothing but the
 * widget. An unknown or rotated URL shows nothing and stops retrying.
 */
export function WidgetPage({ token }: { token: string }) {
  const connection = useWidgetConnection(token);

  useTransparentCanvas(true, { hideOverflow: true });

  const { snapshot, status } = connection;
  return (
    <main aria-label="Widget" data-state={status}>
      {snapshot && status !== 'gone' && <WidgetView type={snapshot.type} connection={connection} />}
    </main>
  );
}
