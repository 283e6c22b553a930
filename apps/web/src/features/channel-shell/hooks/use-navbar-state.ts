import { useDisclosure, useLocalStorage } from '@mantine/hooks';
import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Navbar state of a shell: on desktop it can be hidden and the choice is remembered (localStorage);
 * on mobile it collapses and closes on every route change.
 */
export function useNavbarState(storageKey: string) {
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, setDesktopOpened] = useLocalStorage<boolean>({
    key: storageKey,
    defaultValue: true,
    getInitialValueInEffect: false,
  });
  const { pathname } = useLocation();
  const closeMobile = mobile.close;

  useEffect(() => {
    closeMobile();
  }, [pathname, closeMobile]);

  return {
    mobileOpened,
    desktopOpened,
    toggleMobile: mobile.toggle,
    toggleDesktop: () => setDesktopOpened((opened) => !opened),
  };
}
