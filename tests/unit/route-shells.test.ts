import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIRST_VISIT_ROUTE_SOURCES } from '../../src/server/http/route-shells.ts';

// The server names each first-visit page's route chunk by its source; src/web/routes.tsx is where
// the web app maps the same path to the same lazy import.
describe('the first-visit pages the server preloads', () => {
  it('match the paths and lazy imports of src/web/routes.tsx', () => {
    const routes = fs.readFileSync('src/web/routes.tsx', 'utf8');
    for (const [pagePath, source] of Object.entries(FIRST_VISIT_ROUTE_SOURCES)) {
      // A route's import may be wrapped in withLanguage, which waits for its catalog (decision 046).
      const importMatch = routes.match(
        new RegExp(`const (\\w+) = lazy\\(\\(\\) => (?:withLanguage\\()?import\\('\\./${source.replace(/[.]/g, '\\.')}'\\)(?:, '\\w+')?\\)?\\);`),
      );
      expect(importMatch, source).not.toBeNull();
      const component = importMatch?.[1] ?? '';
      const route = routes.match(new RegExp(`<Route path="${pagePath}" element={[^\\n]*<${component} />`));
      expect(route, `${pagePath} renders ${component}`).not.toBeNull();
    }
  });
});
