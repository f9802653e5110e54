import { PRODUCT_NAME } from '#shared/limits';
import { PublicTextPage } from './public-layout.tsx';

export default function TermsPage() {
  return (
    <PublicTextPage title="Terms of Service">
      <p>
        {PRODUCT_NAME} holds a USDT balance for you. A deposit is credited after an admin has confirmed that your USDT arrived at the admin wallet
        address on the network you chose. Send only USDT, only on that network, to the address shown in the app.
      </p>
      <p>
        Withdrawals are paid in rupees to your saved Indian bank account at the rate shown when you request them. An admin approves each request,
        usually within 3-4 hours. Withdrawals worth {'\u20b9'}1,00,000 or more, and those of VIP members, get the VIP rate.
      </p>
      <p>
        Keep your password and transaction PIN secret: anyone who has both can move your money. After 3 wrong PINs you are signed out. We may refuse or
        reverse a request we believe to be fraudulent.
      </p>
    </PublicTextPage>
  );
}
