import { MantineProvider } from '@mantine/core';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';

/** Mantine reads the colour scheme media query; jsdom has no matchMedia. Call in `beforeAll`. */
export function installMatchMedia(): void {
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

/** Renders inside a MantineProvider (component tests). */
export function renderWithMantine(ui: ReactNode): RenderResult {
  return render(<MantineProvider>{ui}</MantineProvider>);
}
