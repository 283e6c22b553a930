import type { ComponentType } from 'react';
import { TitleScope } from '../lib/document-title';
import type { LazyRouteModule } from './route-module';

/** `Page` with `title` as its part of the document title (inner parts — what the page itself adds — come first). */
export function withTitle(Page: ComponentType, title: string): ComponentType {
  function TitledPage() {
    return (
      <TitleScope title={title}>
        <Page />
      </TitleScope>
    );
  }
  return TitledPage;
}

/** A lazy route module whose page carries `title` in the document title ("Sign in · Greenroom"). */
export function titledRoute(title: string, lazy: LazyRouteModule): LazyRouteModule {
  return async () => ({ Component: withTitle((await lazy()).Component, title) });
}
