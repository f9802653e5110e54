/**
 * How the catalogs are cut into the files the browser loads (docs/decisions/046). The English
 * messages of the landing page and of the app's frame (keys under these prefixes) are inlined in
 * the entry, so the landing page in English waits for no catalog; the rest of English loads
 * beside the first signed-in page, and Hindi loads whole when it is chosen.
 */
export const INLINE_ENGLISH_KEY_PREFIXES = ['home.', 'app.'] as const;

export const CATALOG_PARTS = ['en-inline', 'en-rest', 'hi'] as const;
export type CatalogPart = (typeof CATALOG_PARTS)[number];

export function isInlineEnglishKey(key: string): boolean {
  return INLINE_ENGLISH_KEY_PREFIXES.some((prefix) => key.startsWith(prefix));
}
