import { useParams } from 'react-router';
import { SystemBotDetail } from '../../../features/admin-system-bots/components/system-bot-detail';

/** `/admin/system-provider-bots/:provider`. */
export function Component() {
  const { provider = '' } = useParams();
  return <SystemBotDetail provider={provider} />;
}
