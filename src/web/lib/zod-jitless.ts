/*
 * Every `import ... from 'zod'` of the web build resolves here (see vite.config.ts),
 * so this runs before any schema parses. Zod would otherwise probe whether it may
 * compile code with `new Function`, which our Content-Security-Policy refuses and
 * reports on every page; in jitless mode it never tries.
 */
import * as z from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
