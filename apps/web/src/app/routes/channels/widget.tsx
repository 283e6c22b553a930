import { useParams } from 'react-router';
import { WidgetEditorPage } from '../../../features/widgets/components/widget-editor';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/widgets/:widgetId` (Editor). */
export function Component() {
  const { widgetId = '' } = useParams();
  return <WidgetEditorPage key={widgetId} channelId={useCurrentChannel().id} widgetId={widgetId} />;
}
