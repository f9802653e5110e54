import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureLandingBundle } from './landing-bundle.ts';

/**
 * The speed budget of the first visit: the JavaScript the landing page needs
 * before any user action, gzipped, at most 100,000 bytes (issue 14).
 * It reads the production build, so scripts/test.mjs runs it after the build;
 * BUNDLE_WEB_DIR points it at another build folder.
 */
export const LANDING_BUDGET_GZIP_BYTES = 100_000;

const webDirectory = path.resolve(process.env.BUNDLE_WEB_DIR ?? 'dist/web');

describe('landing page JavaScript budget', () => {
  it(`stays within ${LANDING_BUDGET_GZIP_BYTES} gzipped bytes`, () => {
    const report = measureLandingBundle(webDirectory);
    const breakdown = report.files.map(({ file, gzipBytes }) => `${String(gzipBytes).padStart(7)}  ${file}`).join('\n');
    console.log(
      `Landing page JavaScript in ${webDirectory}, gzip -9:\n${breakdown}\n${String(report.totalGzipBytes).padStart(7)}  total (budget ${LANDING_BUDGET_GZIP_BYTES})`,
    );
    expect(report.files.length).toBeGreaterThan(0);
    expect(report.totalGzipBytes, `the landing page loads ${report.totalGzipBytes} gzipped bytes of JavaScript:\n${breakdown}`).toBeLessThanOrEqual(
      LANDING_BUDGET_GZIP_BYTES,
    );
  });

  it('keeps zod, sonner, tailwind-merge, Radix and lucide-react out of what the landing page needs first', () => {
    const { files } = measureLandingBundle(webDirectory);
    const code = files.map(({ file }) => fs.readFileSync(path.join(webDirectory, file), 'utf8')).join('\n');
    // Strings each library keeps through minification.
    const signatures = {
      zod: 'ZodError',
      sonner: 'data-sonner-toaster',
      'tailwind-merge': 'conflictingClassGroups',
      radix: 'data-radix',
      'lucide-react': 'lucide',
    };
    const present = Object.entries(signatures)
      .filter(([, signature]) => code.includes(signature))
      .map(([library]) => library);
    expect(present).toEqual([]);
  });
});
