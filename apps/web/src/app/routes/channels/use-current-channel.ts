import { useOutletContext } from 'react-router';
import type { Channel } from '@greenroom/contracts/api/channels';

/** Inside a channel page: the channel the shell loaded (with the caller's `access_level`). */
export function useCurrentChannel(): Channel {
  return useOutletContext<Channel>();
}
