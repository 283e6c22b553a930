import { ProviderConnected } from '../../features/user/components/provider-connected';

/** `/user-provider-connected`: landing page of the connect popup. */
export function Component() {
  return <ProviderConnected />;
}
