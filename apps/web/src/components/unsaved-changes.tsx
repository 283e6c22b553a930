import { useWindowEvent } from '@mantine/hooks';
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useBlocker, type Location } from 'react-router';

const DiscardChangesDialog = lazy(() => import('./discard-changes-dialog').then((m) => ({ default: m.DiscardChangesDialog })));

type DirtyCheck = () => boolean;
type Register = (check: DirtyCheck) => () => void;

const GuardContext = createContext<Register | null>(null);

/** Navigation state for a navigation that must not ask (the session ended; the changes were just discarded on purpose). */
export const LEAVE_WITHOUT_ASKING = { leaveWithoutAsking: true } as const;

/** Whether a navigation leaves the page: another path, not marked `LEAVE_WITHOUT_ASKING` (query and hash changes stay). */
export function leavesPage(currentLocation: Location, nextLocation: Location): boolean {
  const state = nextLocation.state as { leaveWithoutAsking?: boolean } | null;
  return currentLocation.pathname !== nextLocation.pathname && state?.leaveWithoutAsking !== true;
}

/**
 * Asks before leaving a page with unsaved changes: a "Discard unsaved changes?" dialog for navigations inside the app,
 * the browser's own prompt for reloads, closing the tab and leaving the site. One guard for the whole app (the router
 * allows one blocker); forms register with `useUnsavedChangesGuard`.
 */
export function UnsavedChangesGuard({ children }: { children: ReactNode }) {
  const checks = useRef(new Set<DirtyCheck>());
  const anyDirty = useCallback(() => [...checks.current].some((isDirty) => isDirty()), []);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => leavesPage(currentLocation, nextLocation) && anyDirty());

  useWindowEvent('beforeunload', (event) => {
    if (!anyDirty()) return;
    event.preventDefault();
    // Older browsers show the prompt only when returnValue is set.
    event.returnValue = '';
  });

  const register = useCallback<Register>((check) => {
    checks.current.add(check);
    return () => void checks.current.delete(check);
  }, []);

  // The dialog is loaded the first time it is needed, then stays mounted (its closing transition plays).
  const blocked = blocker.state === 'blocked';
  const [dialogLoaded, setDialogLoaded] = useState(false);
  if (blocked && !dialogLoaded) setDialogLoaded(true);

  const stay = () => blocker.reset?.();
  return (
    <GuardContext value={register}>
      {children}
      {dialogLoaded && (
        <Suspense fallback={null}>
          <DiscardChangesDialog opened={blocked} onStay={stay} onDiscard={() => blocker.proceed?.()} />
        </Suspense>
      )}
    </GuardContext>
  );
}

/**
 * Registers a form with the app's unsaved-changes guard while the component is mounted: leaving the page while
 * `form.isDirty()` asks first. A saved form (`useFormSubmit`) is not dirty any more. Without a guard above it
 * (component tests), it does nothing.
 */
export function useUnsavedChangesGuard(form: { isDirty: () => boolean }, enabled = true): void {
  const register = useContext(GuardContext);
  const latest = useRef(form);
  useEffect(() => {
    latest.current = form;
  });
  useEffect(() => {
    if (!register || !enabled) return;
    return register(() => latest.current.isDirty());
  }, [register, enabled]);
}
