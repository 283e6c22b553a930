import { useEffect } from 'react';

/**
 * Makes the page see-through for OBS browser sources while `enabled`, and restores it after.
 *
 * The app is dark only: its `<meta name="color-scheme">` and `:root` rule give the canvas a dark backdrop even when
 * nothing is painted. A see-through page therefore switches to the light scheme (whose canvas is transparent when
 * nothing is painted) and clears the root backgrounds. `hideOverflow` also removes scrollbars and the body margin.
 */
export function useTransparentCanvas(enabled: boolean, { hideOverflow = false }: { hideOverflow?: boolean } = {}): void {
  useEffect(() => {
    if (!enabled) return;
    const { documentElement: html, body } = document;
    const meta = document.querySelector<HTMLMetaElement>('meta[name="color-scheme"]');
    const previous = { meta: meta?.content, html: html.getAttribute('style'), body: body.getAttribute('style') };
    if (meta) meta.content = 'light';
    Object.assign(html.style, { background: 'transparent', colorScheme: 'light' });
    Object.assign(body.style, { background: 'transparent' });
    if (hideOverflow) {
      html.style.overflow = 'hidden';
      Object.assign(body.style, { overflow: 'hidden', margin: '0' });
    }
    return () => {
      if (meta && previous.meta !== undefined) meta.content = previous.meta;
      restoreStyle(html, previous.html);
      restoreStyle(body, previous.body);
    };
  }, [enabled, hideOverflow]);
}

function restoreStyle(element: HTMLElement, style: string | null): void {
  if (style === null) element.removeAttribute('style');
  else element.setAttribute('style', style);
}
