import { ModalsProvider } from '@mantine/modals';
import type { ReactNode } from 'react';

/** Modals: every signed-in page has them; public pages do not load them. */
export function SignedInProviders({ children }: { children: ReactNode }) {
  return <ModalsProvider>{children}</ModalsProvider>;
}
