import { Center, Loader } from '@mantine/core';

/** Full-height loader (shown while a channel loads). */
export function FullHeightLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center h="100%" mih="60vh" role="status" aria-live="polite" aria-label={label} data-testid="full-height-loader">
      <Loader type="dots" size="lg" />
    </Center>
  );
}
