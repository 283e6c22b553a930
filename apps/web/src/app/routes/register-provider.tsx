import { useParams, useSearchParams } from 'react-router';
import { RegisterProvider } from '../../features/channel-providers/components/register-provider';

/** `/channels/:channelId/register/:provider` (Admin+): connect one platform in the whole window. */
export function Component() {
  const { channelId = '', provider = '' } = useParams();
  const [search] = useSearchParams();
  return <RegisterProvider channelId={channelId} provider={provider} bot={search.get('bot') === 'true'} />;
}
