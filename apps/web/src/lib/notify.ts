import { notifications } from '@mantine/notifications';
import { errorMessage } from './error-message';

/** Toast durations. */
export const SUCCESS_TOAST_MS = 2000;
export const PROMISE_SUCCESS_TOAST_MS = 1500;
export const ERROR_TOAST_MS = 5000;
export const DEFAULT_TOAST_MS = 4000;
export const MAX_TOASTS = 5;

/** Green toast, 2 s. */
export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, autoClose: SUCCESS_TOAST_MS });
}

/** Yellow toast for what did not happen but is no failure (a cancelled connect), default 4 s. */
export function notifyWarning(message: string): void {
  notifications.show({ color: 'yellow', message, autoClose: DEFAULT_TOAST_MS });
}

/** Red toast, 5 s, with the error text. */
export function notifyError(error: unknown, explicit?: string): void {
  notifications.show({ color: 'red', title: 'Error', message: errorMessage(error, explicit), autoClose: ERROR_TOAST_MS });
}

/** A loading toast that turns green (1.5 s) or red (5 s) when the promise settles. */
export function notifyPromise<T>(
  promise: Promise<T>,
  texts: { loading: string; success: string | ((value: T) => string); error?: string },
): Promise<T> {
  return notifications.promise(promise, {
    loading: { message: texts.loading },
    success: (value) => ({
      color: 'green',
      message: typeof texts.success === 'function' ? texts.success(value) : texts.success,
      autoClose: PROMISE_SUCCESS_TOAST_MS,
    }),
    error: (error) => ({ color: 'red', title: 'Error', message: errorMessage(error, texts.error), autoClose: ERROR_TOAST_MS }),
  });
}
