import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** A deep, slightly cool dark palette; the product is dark only. */
const dark: MantineColorsTuple = [
  '#dcdee7',
  '#a9adbb',
  '#858a9b',
  '#5f6476',
  '#3d4150',
  '#2d303c',
  '#24262f',
  '#1b1d24',
  '#15161c',
  '#0e0f13',
];

export const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: { light: 6, dark: 7 },
  colors: { dark },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  headings: { fontWeight: '700' },
  components: {
    Modal: {
      defaultProps: { overlayProps: { backgroundOpacity: 0.6, blur: 3 } },
      styles: { title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } },
    },
    Tooltip: { defaultProps: { withinPortal: true } },
  },
});
