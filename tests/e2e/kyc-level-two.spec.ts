import { expect, test, type Page } from '@playwright/test';
import { KYC_DOCUMENT_MESSAGES } from '#shared/contracts/kyc-documents';
import { auditPage, expectNoProblems } from './support/accessibility.ts';
import { openAdminAndCustomer, type AdminAndCustomer } from './support/admin-and-customer.ts';
import { heicFixture } from '../fixtures/heic-photos.ts';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, E2E_BASE_URL } from './support/constants.ts';
import { documentFacePhoto, writeFaceClip } from './support/face-clip.ts';

// KYC level 2 (decisions 050 and 052): a customer on a phone sends a driving licence's photos, the address and the
// live selfie, taken by the real face check on Chromium's fake camera playing a clip of a face that turns left (the
// e2e server fixes the challenge to that one step with KYC_LIVENESS_CHALLENGE); the desk sees the case with its
// photos, the liveness report and the face similarity, and asks for the selfie again; with the camera blocked the
// customer is told the way forward, in English and Hindi; Stop turns the camera off.
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1366, height: 900 };

// The project's launch options with a fake camera that plays the clip; no fake permission prompt: the camera is
// allowed or blocked per browser context, as a customer allows or blocks it for the site.
test.use({
  launchOptions: {
    executablePath: CHROMIUM_EXECUTABLE,
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${writeFaceClip()}`],
  },
});

let desk: AdminAndCustomer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  desk = await openAdminAndCustomer(browser, { customer: { name: 'Kavya Menon' }, adminViewport: DESK, customerViewport: PHONE });
});

test.afterAll(async () => {
  await desk.close();
});

function toast(page: Page, text: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });
}

test('a customer sends the second document, the address and the live selfie from a phone; the desk sees the photos, the liveness and the similarity, and asks for the selfie again', async () => {
  // The face check downloads 13 MB of models and looks at each frame for about a second in a busy headless Chromium.
  test.setTimeout(300_000);
  const customer = desk.customerPage;
  await desk.customerContext.grantPermissions(['camera'], { origin: E2E_BASE_URL });
  const modelRequests: string[] = [];
  customer.on('request', (request) => {
    if (/\.(bin|wasm)$/.test(new URL(request.url()).pathname)) modelRequests.push(request.url());
  });
  await customer.goto('/kyc');
  const form = customer.getByTestId('kyc-level-two-form');
  // The machine running the browser tests is shared; the first visit of a page can take longer than the default.
  await expect(form).toBeVisible({ timeout: 30_000 });
  await form.getByLabel('Document number').fill('KA01 20190012345');
  await form.getByLabel('Name as on the document').fill('KAVYA MENON');
  // A file that is no photo is refused beside its field.
  await form.getByTestId('kyc-photo-document_front').setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a photo') });
  await expect(form.getByText(KYC_DOCUMENT_MESSAGES.notAnImage)).toBeVisible();
  await form.getByTestId('kyc-photo-document_front').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: documentFacePhoto() });
  // The back as an iPhone's gallery gives it: a HEIC, which the file input offers and the server converts (decision 063).
  await expect(form.getByTestId('kyc-photo-document_back')).toHaveAttribute('accept', /image\/heic/);
  await form
    .getByTestId('kyc-photo-document_back')
    .setInputFiles({ name: 'IMG_0042.HEIC', mimeType: 'image/heic', buffer: heicFixture('turned-quarters.heic') });
  await expect(form.getByText('Photo added')).toHaveCount(2);
  await form.getByLabel('House, street and area').fill('4 Residency Road');
  await form.getByLabel('City or town').fill('Bengaluru');
  await form.getByLabel('State or union territory').fill('Karnataka');
  await form.getByLabel('PIN code').fill('560025');
  await form.getByRole('button', { name: 'Not now' }).click();
  // Without the selfie the form is not sent.
  await form.getByRole('button', { name: 'Send for level 2' }).click();
  await expect(form.getByText(KYC_DOCUMENT_MESSAGES.selfieNeeded)).toBeVisible();

  const selfie = form.getByTestId('kyc-selfie');
  await selfie.getByRole('button', { name: 'Start the live selfie' }).click();
  await expect(selfie.getByTestId('kyc-selfie-instruction')).toContainText(/Look straight at the camera|Step 1 of 1: turn your head slowly to your left/, {
    timeout: 120_000,
  });
  await expect(selfie.getByText('Live selfie taken.')).toBeVisible({ timeout: 150_000 });
  // The models and the WebAssembly came from this app's origin, and only the ones the check uses.
  expect(modelRequests.length).toBeGreaterThan(0);
  for (const url of modelRequests) expect(url.startsWith(`${E2E_BASE_URL}/assets/face-check/`), url).toBe(true);
  expect(modelRequests.some((url) => url.includes('centernet') || url.includes('handtrack'))).toBe(false);
  await form.getByRole('button', { name: 'Send for level 2' }).click();
  await expect(toast(customer, KYC_DOCUMENT_MESSAGES.submitted)).toBeVisible();
  await expect(customer.getByTestId('kyc-level-two')).toContainText('Your level 2 documents are waiting for a check.');

  const admin = desk.adminPage;
  await admin.goto('/admin/kyc');
  const row = admin.getByRole('row').filter({ hasText: desk.customer.email });
  await expect(row).toContainText('Driving licence', { timeout: 30_000 });
  await expect(row).toContainText('match (100)');
  await row.getByRole('link', { name: 'Kavya Menon' }).click();
  await expect(admin.getByRole('heading', { name: 'KYC level 2 case' })).toBeVisible();
  for (const purpose of ['document_front', 'document_back', 'selfie']) {
    const image = admin.getByTestId(`kyc-image-${purpose}`).getByRole('img');
    await expect(image).toBeVisible();
    // The back is the HEIC, stored upright: 480 x 320.
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(purpose === 'document_back' ? 480 : 640);
  }
  await expect(admin.getByText(/^asked to turn left: 2 frames passed, live \d\.\d\d, real \d\.\d\d, face \d\.\d\d$/)).toBeVisible();
  // The browser sent the frames that looked at the camera with their scores; the server kept the best (decision 052).
  await expect(admin.getByTestId('kyc-selfie-frames')).toContainText('(kept: the best by face, then live, then real, then document score)');
  await expect(admin.getByTestId('kyc-similarity')).toContainText('likely the same person');
  await admin.getByRole('button', { name: 'Ask for a document again' }).click();
  const dialog = admin.getByRole('alertdialog', { name: 'Ask for it again?' });
  await dialog.getByLabel('What must be sent again').selectOption('selfie');
  await dialog.getByLabel('Reason').fill('Please take the live selfie again.');
  await dialog.getByRole('button', { name: 'Ask again' }).click();
  await expect(toast(admin, 'The customer was asked to send it again')).toBeVisible();

  await customer.reload();
  await expect(customer.getByTestId('kyc-level-two')).toContainText('Please send it again: Please take the live selfie again.');
  await expect(customer.getByTestId('kyc-level-two-form')).toBeVisible();
});

/** The states of the camera tracks the selfie step's video shows, or null when it shows no stream. */
function videoTrackStates(page: Page): Promise<string[] | null> {
  return page
    .getByTestId('kyc-selfie')
    .locator('video')
    .evaluate((video: HTMLVideoElement) => (video.srcObject instanceof MediaStream ? video.srcObject.getTracks().map((track) => track.readyState) : null));
}

test('Stop in the selfie step turns the camera off', async () => {
  test.setTimeout(120_000);
  const customer = desk.customerPage;
  await desk.customerContext.grantPermissions(['camera'], { origin: E2E_BASE_URL });
  await customer.goto('/kyc');
  const form = customer.getByTestId('kyc-level-two-form');
  await expect(form).toBeVisible({ timeout: 30_000 });
  await form.getByTestId('kyc-photo-document_front').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: documentFacePhoto() });
  const selfie = form.getByTestId('kyc-selfie');
  await selfie.getByRole('button', { name: 'Start the live selfie' }).click();
  // The fake camera is on and playing in the step.
  await expect.poll(() => videoTrackStates(customer), { timeout: 60_000 }).toEqual(['live']);
  await selfie.getByRole('button', { name: 'Stop', exact: true }).click();
  // The step stops the stream's tracks (the browser's camera light goes off) and keeps the ended stream in the hidden video.
  await expect.poll(() => videoTrackStates(customer)).toEqual(['ended']);
  await expect(selfie.getByRole('button', { name: 'Start the live selfie' })).toBeVisible();
  await expect(selfie.getByTestId('kyc-selfie-instruction')).toBeHidden();
});

test('with the camera blocked for the site, the selfie step says so and offers another device and a retry, in English and Hindi', async () => {
  // Two languages, each audited by axe, on a busy machine.
  test.setTimeout(240_000);
  const customer = desk.customerPage;
  await desk.customerContext.clearPermissions();
  const problems: string[] = [];
  for (const language of ['en', 'hi'] as const) {
    // The choice is made on the profile's Language card, as a customer makes it.
    await customer.goto('/profile');
    await customer.getByLabel('Language').selectOption(language);
    await expect(customer.getByRole('heading', { name: language === 'en' ? 'Language' : 'भाषा' })).toBeVisible();
    await customer.goto('/kyc');
    const form = customer.getByTestId('kyc-level-two-form');
    await form.getByTestId('kyc-photo-document_front').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: documentFacePhoto() });
    const selfie = form.getByTestId('kyc-selfie');
    await selfie.getByRole('button', { name: language === 'en' ? 'Start the live selfie' : 'लाइव सेल्फ़ी शुरू करें' }).click();
    const problem = selfie.getByTestId('kyc-selfie-problem');
    await expect(problem).toContainText(language === 'en' ? 'The camera is blocked for this site' : 'इस साइट के लिए कैमरा बंद है');
    await expect(problem).toContainText(`${E2E_BASE_URL}/kyc`);
    await expect(selfie.getByRole('button', { name: language === 'en' ? 'Try again' : 'फिर से कोशिश करें' })).toBeVisible();
    problems.push(...(await auditPage(customer, `/kyc selfie step, camera blocked (${language})`)));
  }
  expectNoProblems(problems);
});
