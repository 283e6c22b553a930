import { useParams } from 'react-router';
import { useDocumentTitle } from '../../lib/document-title';
import { WidgetPage } from '../../features/widgets/components/widget-page';

/** `/widget/:widgetId` (public, no login): a stream widget for OBS; the id is the widget's secret URL token. */
export function Component() {
  const { widgetId = '' } = useParams();
  useDocumentTitle('Widget');
  return <WidgetPage key={widgetId} token={widgetId} />;
}
