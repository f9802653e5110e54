import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { PRODUCT_TAGLINE } from '#shared/limits';
import { Converter } from '../rates/converter.tsx';
import { RateCard } from '../rates/rate-card.tsx';
import { usePublicSettings } from '../support/public-settings.ts';
import { supportChatUrl } from '../support/support-chat-url.ts';
import { outlineLinkClass, primaryLinkClass } from '../../components/ui/link-classes.ts';
import { PublicLayout } from './public-layout.tsx';

// Loaded apart: the landing page's first JavaScript stays within its budget.
const InstallAppButton = lazy(() => import('../install/install-app-button.tsx'));

const HOW_IT_WORKS = [
  { title: 'Sign Up & Verify', text: 'Create your account with your email and phone number, and set your 4-digit transaction PIN.' },
  { title: 'Send USDT to Admin', text: 'Deposit USDT over TRC20 or ERC20 to the admin wallet address and submit the transaction hash.' },
  { title: 'Receive INR', text: 'Withdraw rupees to your Indian bank account. Requests are processed in about 3-4 hours.' },
] as const;

export default function LandingPage() {
  const settings = usePublicSettings();
  const apk = settings.data?.apk;
  const supportLink = settings.data ? supportChatUrl(settings.data.whatsappSupportNumber) : undefined;

  return (
    <PublicLayout
      actions={
        <nav aria-label="Account" className="flex gap-2">
          <Link to="/login" className={`${outlineLinkClass} h-9`}>
            Login
          </Link>
          <Link to="/signup" className={`${primaryLinkClass} h-9`}>
            Sign Up
          </Link>
        </nav>
      }
    >
      <section className="flex flex-col items-center gap-4 py-8 text-center">
        <h1 className="text-3xl font-bold sm:text-5xl">Turn USDT into rupees, straight to your bank</h1>
        <p className="max-w-xl text-slate-600">{PRODUCT_TAGLINE}: deposit USDT, withdraw INR to any Indian bank account, with a better rate for VIP members.</p>
        <div className="flex flex-wrap justify-center gap-3">
          <Link to="/signup" className={`${primaryLinkClass} h-12 px-6 text-base`}>
            Get Started
          </Link>
          {apk?.exists && apk.url && (
            <a href={apk.url} className={`${outlineLinkClass} h-12 px-6 text-base`}>
              Download App
            </a>
          )}
          <Suspense fallback={null}>
            <InstallAppButton />
          </Suspense>
        </div>
      </section>

      <div className="grid gap-4 md:grid-cols-2">
        <RateCard />
        <Converter />
      </div>

      <section aria-labelledby="how-it-works-title" className="flex flex-col gap-4">
        <h2 id="how-it-works-title" className="text-center text-2xl font-bold">
          How It Works
        </h2>
        <ol className="grid gap-4 sm:grid-cols-3">
          {HOW_IT_WORKS.map(({ title, text }, index) => (
            <li key={title} className="flex flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
              <span className="flex size-10 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white" aria-hidden>
                {index + 1}
              </span>
              <h3 className="font-semibold">{title}</h3>
              <p className="text-sm text-slate-600">{text}</p>
            </li>
          ))}
        </ol>
      </section>

      {supportLink && (
        <section className="flex flex-col items-center gap-2 text-center">
          <p className="text-slate-600">Questions? Our team is a message away.</p>
          <a href={supportLink} target="_blank" rel="noopener noreferrer" className={`${outlineLinkClass} h-11`}>
            Chat with Support
          </a>
        </section>
      )}
    </PublicLayout>
  );
}
