import { Outlet, ScrollRestoration } from 'react-router';
import { UnsavedChangesGuard } from '../../components/unsaved-changes';

export function RootLayout() {
  return (
    <UnsavedChangesGuard>
      <Outlet />
      <ScrollRestoration />
    </UnsavedChangesGuard>
  );
}
