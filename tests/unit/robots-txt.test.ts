import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import RobotsTxt from 'lighthouse/core/audits/seo/robots-txt.js';

// Issue 33, item 9: robots.txt valid by Lighthouse's own check (its SEO audit "robots.txt is valid"), run on the file we serve.
describe('public/robots.txt', () => {
  it("passes Lighthouse's robots.txt audit", () => {
    const content = fs.readFileSync('public/robots.txt', 'utf8');
    const result = RobotsTxt.audit({ RobotsTxt: { status: 200, content } } as unknown as Parameters<typeof RobotsTxt.audit>[0]);
    expect(result.details).toMatchObject({ items: [] });
    expect(result.score).toBe(1);
  });
});
