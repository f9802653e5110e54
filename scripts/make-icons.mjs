// Renders the app icons (public/icons/*.png) from one SVG with the browser the e2e tests use,
// since no image library is installed. Run once after changing the design: node scripts/make-icons.mjs
import { chromium } from '@playwright/test';

const BRAND = '#0f766e';

/** The rupee sign on the brand colour; a maskable icon keeps its mark inside the central 80% safe zone. */
function iconSvg(size, { maskable }) {
  const radius = maskable ? 0 : size * 0.22;
  const fontSize = size * (maskable ? 0.5 : 0.62);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
    <rect width="${size}" height="${size}" rx="${radius}" fill="${BRAND}"/>
    <text x="50%" y="50%" dy="0.35em" font-family="DejaVu Sans, Arial, sans-serif" font-size="${fontSize}" font-weight="700" fill="#fff" text-anchor="middle">&#8377;</text>
  </svg>`;
}

const icons = [
  { file: 'public/icons/icon-192.png', size: 192, maskable: false },
  { file: 'public/icons/icon-512.png', size: 512, maskable: false },
  { file: 'public/icons/icon-maskable-512.png', size: 512, maskable: true },
  { file: 'public/icons/apple-touch-icon-180.png', size: 180, maskable: true },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  for (const { file, size, maskable } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<html><body style="margin:0;background:transparent">${iconSvg(size, { maskable })}</body></html>`);
    await page.locator('svg').screenshot({ path: file, omitBackground: true });
    await page.close();
    console.log(`wrote ${file}`);
  }
} finally {
  await browser.close();
}
