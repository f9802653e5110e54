// Lighthouse's mobile performance audit (its default: a mid-range phone on a slow 4G network,
// simulated) of the landing and login pages, in the Chromium at /usr/bin/chromium.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { printTable } from './measure.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function milliseconds(value: number | undefined): string {
  return value === undefined ? '?' : String(Math.round(value));
}

/** With reportDirectory, each page's full report is written there as JSON (its treemap, boot-up time and main-thread work). */
export async function reportLighthouse(origin: string, pages: readonly string[], log: (message: string) => void, reportDirectory?: string): Promise<void> {
  const profileDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-lighthouse-'));
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    userDataDir: profileDirectory,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const rows: string[][] = [];
  try {
    for (const page of pages) {
      log(`Lighthouse (mobile, performance) on ${page}...`);
      const result = await lighthouse(`${origin}${page}`, { port: chrome.port, onlyCategories: ['performance'], logLevel: 'error', output: 'json' });
      if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
      const { lhr } = result;
      if (reportDirectory !== undefined) {
        fs.mkdirSync(reportDirectory, { recursive: true });
        const file = path.join(reportDirectory, `lighthouse-${page === '/' ? 'landing' : page.replace(/[^a-z0-9]+/gi, '')}.json`);
        fs.writeFileSync(file, JSON.stringify(lhr));
        log(`The full report: ${file}`);
      }
      const audit = (id: string) => lhr.audits[id]?.numericValue;
      const javaScriptBytes = (
        lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined
      )?.items?.find((item) => item.resourceType === 'script')?.transferSize;
      rows.push([
        page,
        String(Math.round((lhr.categories.performance?.score ?? 0) * 100)),
        milliseconds(audit('first-contentful-paint')),
        milliseconds(audit('largest-contentful-paint')),
        milliseconds(audit('total-blocking-time')),
        (audit('cumulative-layout-shift') ?? 0).toFixed(3),
        milliseconds(audit('speed-index')),
        javaScriptBytes === undefined ? '?' : javaScriptBytes.toLocaleString('en-US'),
      ]);
    }
  } finally {
    chrome.kill();
    fs.rmSync(profileDirectory, { recursive: true, force: true });
  }
  console.log('');
  printTable(['page', 'Lighthouse mobile performance', 'FCP ms', 'LCP ms', 'TBT ms', 'CLS', 'Speed Index ms', 'JS bytes transferred'], rows);
  console.log('\nLighthouse simulates a slow phone and network, but its CPU timings still come from this shared machine.');
}
