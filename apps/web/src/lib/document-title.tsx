import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export const APP_NAME = 'Greenroom';
const SEPARATOR = ' · ';

/** The tab title from its parts, most specific first: `['Chat', 'Demo Stream']` → "Chat · Demo Stream · Greenroom". */
export function documentTitle(parts: readonly (string | null | undefined)[]): string {
  return [...parts.filter((part): part is string => typeof part === 'string' && part.trim() !== ''), APP_NAME].join(SEPARATOR);
}

/** How a scope hears the parts of the scopes and pages inside it (null: the inner one went away). */
type Report = (parts: string[] | null) => void;
const TitleContext = createContext<Report | null>(null);

/**
 * Adds `title` to the document title of everything rendered inside: the parts of inner scopes and pages come first,
 * then this one (a channel layout adds the channel's name; a registry entry adds its page name). The outermost
 * scope (the root layout) writes `document.title`.
 */
export function TitleScope({ title, children }: { title?: string | null; children: ReactNode }) {
  const report = useContext(TitleContext);
  const [inner, setInner] = useState<string[] | null>(null);
  const parts = useMemo(() => [...(inner ?? []), ...(title ? [title] : [])], [inner, title]);

  useEffect(() => {
    if (report) report(parts);
    else document.title = documentTitle(parts);
  }, [report, parts]);
  useEffect(() => (report ? () => report(null) : undefined), [report]);

  return <TitleContext value={setInner}>{children}</TitleContext>;
}

/**
 * Puts `title` in front of the document title while the component is mounted: what only the page knows (the
 * platform of a connection page, a viewer's name). Pages of a registry get their page name from their entry.
 */
export function useDocumentTitle(title: string | null | undefined): void {
  const report = useContext(TitleContext);
  useEffect(() => {
    if (!report) {
      document.title = documentTitle([title]);
      return;
    }
    report(title ? [title] : null);
    return () => report(null);
  }, [report, title]);
}
