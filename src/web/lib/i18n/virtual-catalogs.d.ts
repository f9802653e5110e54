/** The catalogs' parts, compiled from catalogs/*.json at build time by vite.config.ts's catalogParts plugin. */
declare module 'virtual:i18n-catalog/*' {
  import type { Messages } from '@lingui/core';
  const messages: Messages;
  export default messages;
}
