import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fullPageLoaderMarkup } from '../../src/server/http/route-shells.ts';
import { FullPageLoader } from '../../src/web/components/ui/spinner.tsx';

// The server paints the loader into index.html before any script runs; React then renders the same
// element in its place, so nothing on the screen changes when it takes over.
describe('the loader in the served index.html', () => {
  it('is the markup React renders for FullPageLoader, to the byte', () => {
    expect(fullPageLoaderMarkup('Initializing...')).toBe(renderToStaticMarkup(createElement(FullPageLoader, { text: 'Initializing...' })));
    expect(fullPageLoaderMarkup('Loading...')).toBe(renderToStaticMarkup(createElement(FullPageLoader)));
  });
});
