import type { CSSProperties } from 'react';
import { APP_NAME } from '../lib/document-title';
import { FullHeightLoader } from './full-height-loader';
import classes from './app-shell-skeleton.module.css';
import type { ShellFrame } from './shell-frames';

/**
 * The frame of a signed-in shell (header with the product name, navbar placeholders) drawn while the page's code and
 * the account load, so the first thing painted is the page's own frame, not a blank screen with a spinner.
 * Built from plain elements: it ships in the app's first chunk.
 */
export function AppShellSkeleton({ frame, label }: { frame: ShellFrame; label: string }) {
  const style = {
    '--gr-skeleton-header-height': `${frame.headerHeight}px`,
    '--gr-skeleton-navbar-width': `${frame.navbarWidth}px`,
  } as CSSProperties;
  return (
    <div className={`${classes.root} ${frame.navbarWidth > 0 ? classes.withNavbar : ''}`} style={style} data-testid="app-shell-skeleton">
      <header className={classes.header}>
        <span className={classes.mark} aria-hidden />
        <span className={classes.name}>{APP_NAME}</span>
      </header>
      {frame.navbarWidth > 0 && (
        <nav className={classes.navbar} aria-hidden>
          {[0, 1, 2, 3].map((i) => (
            <span key={i} className={classes.bar} />
          ))}
        </nav>
      )}
      <main className={classes.main}>
        <FullHeightLoader label={label} />
      </main>
    </div>
  );
}
