import { expect, test, type Page } from '@playwright/test';
import jpeg from 'jpeg-js';
import { KYC_DOCUMENT_MESSAGES } from '#shared/contracts/kyc-documents';
import { openAdminAndCustomer, type AdminAndCustomer } from './support/admin-and-customer.ts';

// KYC level 2 (decision 050): a customer on a phone sends a driving licence's photos and the address; the desk sees the case with its photos and asks for the selfie.
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1366, height: 900 };

let desk: AdminAndCustomer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  desk = await openAdminAndCustomer(browser, { customer: { name: 'Kavya Menon' }, adminViewport: DESK, customerViewport: PHONE });
});

test.afterAll(async () => {
  await desk.close();
});

function photo(shade: number): Buffer {
  const width = 480;
  const height = 360;
  const data = Buffer.alloc(width * height * 4, shade);
  for (let index = 3; index < data.length; index += 4) data[index] = 255;
  return Buffer.from(jpeg.encode({ data, width, height }, 80).data);
}

function toast(page: Page, text: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });
}

test('a customer sends the second document and the address from a phone; the desk sees the photos and asks for the selfie', async () => {
  const customer = desk.customerPage;
  await customer.goto('/kyc');
  const form = customer.getByTestId('kyc-level-two-form');
  await expect(form).toBeVisible();
  await form.getByLabel('Document number').fill('KA01 20190012345');
  await form.getByLabel('Name as on the document').fill('KAVYA MENON');
  // A file that is no photo is refused beside its field.
  await form.getByTestId('kyc-photo-document_front').setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a photo') });
  await expect(form.getByText(KYC_DOCUMENT_MESSAGES.notAnImage)).toBeVisible();
  await form.getByTestId('kyc-photo-document_front').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: photo(120) });
  await form.getByTestId('kyc-photo-document_back').setInputFiles({ name: 'back.jpg', mimeType: 'image/jpeg', buffer: photo(180) });
  await expect(form.getByText('Photo added')).toHaveCount(2);
  await form.getByLabel('House, street and area').fill('4 Residency Road');
  await form.getByLabel('City or town').fill('Bengaluru');
  await form.getByLabel('State or union territory').fill('Karnataka');
  await form.getByLabel('PIN code').fill('560025');
  await form.getByRole('button', { name: 'Not now' }).click();
  await form.getByRole('button', { name: 'Send for level 2' }).click();
  await expect(toast(customer, KYC_DOCUMENT_MESSAGES.submitted)).toBeVisible();
  await expect(customer.getByTestId('kyc-level-two')).toContainText('Your level 2 documents are waiting for a check.');

  const admin = desk.adminPage;
  await admin.goto('/admin/kyc');
  const row = admin.getByRole('row').filter({ hasText: desk.customer.email });
  await expect(row).toContainText('Driving licence');
  await expect(row).toContainText('match (100)');
  await row.getByRole('link', { name: 'Kavya Menon' }).click();
  await expect(admin.getByRole('heading', { name: 'KYC level 2 case' })).toBeVisible();
  for (const purpose of ['document_front', 'document_back']) {
    const image = admin.getByTestId(`kyc-image-${purpose}`).getByRole('img');
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(480);
  }
  await expect(admin.getByText('No live selfie')).toBeVisible();
  await admin.getByRole('button', { name: 'Ask for a document again' }).click();
  const dialog = admin.getByRole('alertdialog', { name: 'Ask for it again?' });
  await dialog.getByLabel('What must be sent again').selectOption('selfie');
  await dialog.getByLabel('Reason').fill('Please add the live selfie.');
  await dialog.getByRole('button', { name: 'Ask again' }).click();
  await expect(toast(admin, 'The customer was asked to send it again')).toBeVisible();

  await customer.reload();
  await expect(customer.getByTestId('kyc-level-two')).toContainText('Please send it again: Please add the live selfie.');
  await expect(customer.getByTestId('kyc-level-two-form')).toBeVisible();
});
