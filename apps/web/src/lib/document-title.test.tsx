import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { documentTitle, TitleScope, useDocumentTitle } from './document-title';

afterEach(cleanup);

function Detail({ name }: { name?: string }) {
  useDocumentTitle(name);
  return null;
}

function Page({ channel, page, detail }: { channel?: string; page?: string; detail?: string }) {
  return (
    <TitleScope>
      <TitleScope title={channel}>
        {page !== undefined && (
          <TitleScope key={page} title={page}>
            {detail !== undefined && <Detail name={detail} />}
          </TitleScope>
        )}
      </TitleScope>
    </TitleScope>
  );
}

describe('documentTitle', () => {
  it('joins the parts, most specific first, then the product name; empty parts are left out', () => {
    expect(documentTitle(['Chat', 'Demo Stream'])).toBe('Chat · Demo Stream · Greenroom');
    expect(documentTitle([undefined, '', ' ', null, 'Sign in'])).toBe('Sign in · Greenroom');
    expect(documentTitle([])).toBe('Greenroom');
  });
});

describe('TitleScope and useDocumentTitle', () => {
  it('compose the title from the innermost part outwards', () => {
    render(<Page channel="Demo Stream" page="Platforms" detail="Twitch" />);
    expect(document.title).toBe('Twitch · Platforms · Demo Stream · Greenroom');
  });

  it('follow navigation: another page, a page without detail, a channel name arriving later', () => {
    const { rerender } = render(<Page page="Chat" />);
    expect(document.title).toBe('Chat · Greenroom');
    rerender(<Page channel="Demo Stream" page="Chat" />);
    expect(document.title).toBe('Chat · Demo Stream · Greenroom');
    rerender(<Page channel="Demo Stream" page="Platforms" detail="Kick" />);
    expect(document.title).toBe('Kick · Platforms · Demo Stream · Greenroom');
    rerender(<Page channel="Demo Stream" page="User Access" />);
    expect(document.title).toBe('User Access · Demo Stream · Greenroom');
    rerender(<Page channel="Renamed" />);
    expect(document.title).toBe('Renamed · Greenroom');
  });

  it('a page outside any scope sets the title itself', () => {
    render(<Detail name="Chat" />);
    expect(document.title).toBe('Chat · Greenroom');
  });
});
