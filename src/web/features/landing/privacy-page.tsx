import { PRODUCT_NAME } from '#shared/limits';
import { PublicTextPage } from './public-layout.tsx';

export default function PrivacyPage() {
  return (
    <PublicTextPage title="Privacy Policy">
      <p>
        {PRODUCT_NAME} keeps the information you give us to run your account: your name, email address and phone number, the bank accounts you save,
        and the history of your deposits, withdrawals and transfers.
      </p>
      <p>
        We use it only to verify deposits, pay withdrawals to your bank account, keep your account secure and answer your questions. We do not sell it.
        Your password and transaction PIN are stored only as one-way hashes; our staff can never read them.
      </p>
      <p>
        We keep transaction records for as long as the law requires. To correct your details or close your account, contact us from the Contact Us
        page.
      </p>
    </PublicTextPage>
  );
}
