import { Notifications } from '@mantine/notifications';
import { DEFAULT_TOAST_MS, MAX_TOASTS } from '../lib/notify';

/** Where toasts appear: bottom right (how many and for how long: lib/notify.ts). */
export function Toasts() {
  return <Notifications position="bottom-right" limit={MAX_TOASTS} autoClose={DEFAULT_TOAST_MS} />;
}
