import { useEffect, useState, type RefObject } from 'react';

/**
 * Toasts stay bottom-right, but never over what a page needs there: a page can lift the toast stack above an
 * element (the chat composer), and read how tall the stack is to keep its own newest content clear of it.
 */

/** CSS variable on the root element: how far above the bottom edge the bottom-right toast stack sits. */
export const TOAST_OFFSET_VAR = '--greenroom-toast-offset';

/** Keeps the bottom-right toast stack above `ref`'s element (its height plus the space under it) while mounted. */
export function useToastsAbove(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement;
    const update = () => root.style.setProperty(TOAST_OFFSET_VAR, `${Math.max(0, window.innerHeight - el.getBoundingClientRect().top)}px`);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    window.addEventListener('resize', update);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', update);
      root.style.removeProperty(TOAST_OFFSET_VAR);
    };
  }, [ref]);
}

const STACK_SELECTOR = '.mantine-Notifications-root[data-position="bottom-right"]';

/** The gap between the toast stack and what it sits above (Mantine's spacing-md) plus a little air. */
const STACK_GAP_PX = 20;

/**
 * How much room the bottom-right toast stack takes above the element it sits on (its height and the gap under it;
 * 0 when there is none), updated as toasts come and go.
 */
export function useToastStackHeight(): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    let stack: HTMLElement | null = null;
    const resize = new ResizeObserver(() => {
      const h = stack ? Math.ceil(stack.getBoundingClientRect().height) : 0;
      setHeight(h > 0 ? h + STACK_GAP_PX : 0);
    });
    // The toast container is mounted by a portal, possibly after this page: watch for it until it is there.
    const attach = () => {
      if (stack) return;
      stack = document.querySelector<HTMLElement>(STACK_SELECTOR);
      if (!stack) return;
      resize.observe(stack);
      waiting.disconnect();
    };
    const waiting = new MutationObserver(attach);
    waiting.observe(document.body, { childList: true, subtree: true });
    attach();
    return () => {
      waiting.disconnect();
      resize.disconnect();
    };
  }, []);
  return height;
}
