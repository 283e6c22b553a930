import { Outlet } from 'react-router';
import { SimpleShell } from '../../components/simple-shell';
import { LocalPlatformsNotice } from '../../features/auth/components/local-platforms-notice';
import { UserMenu } from '../../features/user/components/user-menu';

/** Frame of the signed-in pages outside a channel: channel list, welcome, create channel. */
export function Component() {
  return (
    <SimpleShell
      headerRight={
        <>
          <LocalPlatformsNotice />
          <UserMenu />
        </>
      }
    >
      <Outlet />
    </SimpleShell>
  );
}
