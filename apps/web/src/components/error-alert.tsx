import { Alert, type AlertProps } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../lib/error-message';

interface ErrorAlertProps extends Omit<AlertProps, 'title' | 'color' | 'icon' | 'children'> {
  error?: unknown;
  /** Explicit text; wins over the error's own message. */
  message?: string | null;
  children?: ReactNode;
}

/** The error display: a red alert titled "Error" with an alert icon. */
export function ErrorAlert({ error, message, children, ...props }: ErrorAlertProps) {
  return (
    <Alert color="red" variant="light" title="Error" icon={<IconAlertCircle aria-hidden />} role="alert" {...props}>
      {errorMessage(error, message)}
      {children}
    </Alert>
  );
}
