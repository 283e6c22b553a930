import { useUser } from '../../features/user/api/get-user';
import { Welcome } from '../../features/channels/components/welcome';

/** `/welcome`. */
export function Component() {
  const user = useUser();
  return <Welcome displayName={user.data?.display_name ?? ''} />;
}
