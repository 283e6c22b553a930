import { Outlet, ScrollRestoration } from 'react-router';
import { UnsavedChangesGuard } from '../../components/unsaved-changes';
import { TitleScope } from '../../lib/document-title';

export function RootLayout() {
  return (
    <TitleScope>
      <UnsavedChangesGuard>
        <Outlet />
        <ScrollRestoration />
      </UnsavedChangesGuard>
    </TitleScope>
  );
}
