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

/** How tall the bottom-right toast stack is now (0 when there is none), updated as toasts come and go. */
export function useToastStackHeight(): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const stack = document.querySelector<HTMLElement>(STACK_SELECTOR);
    if (!stack) return;
    const update = () => setHeight(stack.children.length === 0 ? 0 : Math.ceil(stack.getBoundingClientRect().height));
    update();
    const resize = new ResizeObserver(update);
    resize.observe(stack);
    const mutations = new MutationObserver(update);
    mutations.observe(stack, { childList: true, subtree: true });
    return () => {
      resize.disconnect();
      mutations.disconnect();
    };
  }, []);
  return height;
}
