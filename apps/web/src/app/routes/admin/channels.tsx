import { AdminChannels } from '../../../features/admin/components/admin-channels';

/** `/admin` and `/admin/channels`. */
export function Component() {
  return <AdminChannels />;
}
