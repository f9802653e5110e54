import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import LoginPage from '../features/auth/login-page.tsx';
import LandingPage from '../features/landing/landing-page.tsx';
import { languageReady } from '../lib/i18n/i18n.ts';

/*
 * The landing and login pages rendered to HTML at build time (decision 065), in English, as their
 * first render in the browser shows them: every lazy part at its fallback and no answer from the
 * API yet. scripts/build-into.mjs runs this module (built by Vite for Node) and writes the pages
 * beside index.html; the server puts them in those pages' HTML for visitors without a session.
 */
const PAGES: Readonly<Record<string, ComponentType>> = { '/': LandingPage, '/login': LoginPage };

/**
 * The copy is for reading until the live page replaces it: its buttons, whose actions need the
 * JavaScript, are disabled (a tap waits for the live one instead of being lost, and a form cannot
 * be sent by the browser itself, not even with the Enter key), and its fields carry no names, so
 * that nothing typed could ever reach a URL. Links work as plain links.
 */
function inert(html: string): string {
  return html.replace(/<(input|select|textarea)\b([^>]*?)\sname="[^"]*"/g, '<$1$2').replace(/<button\b(?![^>]*\sdisabled=)/g, '<button disabled=""');
}

/** React's markers of suspended parts (comments and templates), which no script reads here. */
function withoutSuspenseMarkers(html: string): string {
  return html.replace(/<template[^>]*><\/template>/g, '').replace(/<!--\/?\$[!?]?-->/g, '');
}

/** Each page's HTML by its path. */
export async function renderPrerenderedPages(): Promise<Record<string, string>> {
  // The login page reads the catalog's rest; the landing page's English is inline.
  await languageReady('page');
  const pages: Record<string, string> = {};
  for (const [path, Page] of Object.entries(PAGES)) {
    // A client per page, as a first visit has: nothing fetched, nothing cached.
    const queryClient = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
    const html = renderToString(
      <QueryClientProvider client={queryClient}>
        <StaticRouter location={path}>
          <Page />
        </StaticRouter>
      </QueryClientProvider>,
    );
    pages[path] = inert(withoutSuspenseMarkers(html));
  }
  return pages;
}
