import { SystemBotsList } from '../../../features/admin-system-bots/components/system-bots-list';

/** `/admin/system-provider-bots`. */
export function Component() {
  return <SystemBotsList />;
}
