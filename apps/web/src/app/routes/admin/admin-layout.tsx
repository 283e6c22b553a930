import { Outlet } from 'react-router';
import { buildNavTree } from '../../../components/nav-tree';
import { TitleScope } from '../../../lib/document-title';
import { AdminShell } from '../../../features/admin/components/admin-shell';
import { NoAccess } from '../../../features/admin/components/no-access';
import { adminNavOutline } from '../../../features/admin/nav-outline';
import { LocalPlatformsNotice } from '../../../features/auth/components/local-platforms-notice';
import { useUser } from '../../../features/user/api/get-user';
import { UserMenu } from '../../../features/user/components/user-menu';
import { adminNavPages } from '../../admin-pages';

const navItems = buildNavTree(adminNavOutline, adminNavPages());

/** `/admin`: the admin shell; a non-operator sees "You do not have access". */
export function Component() {
  const user = useUser();
  const operator = user.data?.is_operator === true;
  return (
    <TitleScope title="Admin">
      <AdminShell
        navItems={operator ? navItems : []}
        headerRight={
          <>
            <LocalPlatformsNotice />
            <UserMenu />
          </>
        }
      >
        {operator ? <Outlet /> : <NoAccess />}
      </AdminShell>
    </TitleScope>
  );
}
