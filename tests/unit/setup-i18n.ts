import { languageReady } from '../../src/web/lib/i18n/i18n.ts';

// In the browser every page waits for its catalog before it renders (withLanguage in src/web/routes.tsx); web helpers
// tested here run outside a page, so the English catalog is loaded for them first, as a page would have (decision 046).
await languageReady('page');
