import { useParams, useSearchParams } from 'react-router';
import { OauthCallback } from '../../features/auth/components/oauth-callback';

/** `/oauth/:provider` (public): where the platforms send the browser back. */
export function Component() {
  const { provider = '' } = useParams();
  const [params] = useSearchParams();
  return <OauthCallback key={`${provider}:${params.get('state') ?? ''}`} provider={provider} params={params} />;
}
