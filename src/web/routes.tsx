import { lazy, Suspense, useLayoutEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { FullPageLoader } from './components/ui/spinner.tsx';
import { languageReady, useTranslation } from './lib/i18n/i18n.ts';
import { prerenderedPage } from './lib/prerendered-page.ts';
import { RedirectIfSignedIn, RequireSession, RequireVerifiedUser } from './features/shell/guards.tsx';
import { RouteErrorBoundary } from './features/shell/route-error-boundary.tsx';

/** A page's module once the chosen language can show it: its catalog loads beside the page's code (docs/decisions/046). */
function withLanguage<Module>(loading: Promise<Module>, needs: 'landing' | 'page' = 'page'): Promise<Module> {
  return Promise.all([loading, languageReady(needs)]).then(([module]) => module);
}

// Each page is its own chunk, so the first visit loads only what that page needs.
// lazy() runs once per page at module level: a new lazy component on every render would suspend forever.
const LandingPage = lazy(() => withLanguage(import('./features/landing/landing-page.tsx'), 'landing'));
const PrivacyPage = lazy(() => withLanguage(import('./features/landing/privacy-page.tsx')));
const TermsPage = lazy(() => withLanguage(import('./features/landing/terms-page.tsx')));
const ContactPage = lazy(() => withLanguage(import('./features/landing/contact-page.tsx')));
const LoginPage = lazy(() => withLanguage(import('./features/auth/login-page.tsx')));
const SignupPage = lazy(() => withLanguage(import('./features/auth/signup-page.tsx')));
const ForgotPasswordPage = lazy(() => withLanguage(import('./features/auth/forgot-password-page.tsx')));
const ResetPasswordPage = lazy(() => withLanguage(import('./features/auth/reset-password-page.tsx')));
const VerifyEmailPage = lazy(() => withLanguage(import('./features/contact-verification/verify-email-page.tsx')));
const VerifyPinPage = lazy(() => withLanguage(import('./features/pin/verify-pin-page.tsx')));
const PinSetupPage = lazy(() => withLanguage(import('./features/pin/pin-setup-page.tsx')));
const ResetPinPage = lazy(() => withLanguage(import('./features/pin/reset-pin-page.tsx')));
const DashboardPage = lazy(() => withLanguage(import('./features/dashboard/dashboard-page.tsx')));
const ProfilePage = lazy(() => withLanguage(import('./features/profile/profile-page.tsx')));
const WalletPage = lazy(() => withLanguage(import('./features/wallet/wallet-page.tsx')));
const HistoryPage = lazy(() => withLanguage(import('./features/wallet/history-page.tsx')));
const TransactionPage = lazy(() => withLanguage(import('./features/wallet/transaction-page.tsx')));
const NotificationsPage = lazy(() => withLanguage(import('./features/notifications/notifications-page.tsx')));
const DepositPage = lazy(() => withLanguage(import('./features/wallet/deposit-page.tsx')));
const WithdrawPage = lazy(() => withLanguage(import('./features/wallet/withdraw-page.tsx')));
const CustomerWalletsPage = lazy(() => withLanguage(import('./features/wallet/customer-wallets-page.tsx')));
const BankAccountsPage = lazy(() => withLanguage(import('./features/bank-accounts/bank-accounts-page.tsx')));
const ReferralsPage = lazy(() => withLanguage(import('./features/referrals/referrals-page.tsx')));
const KycPage = lazy(() => withLanguage(import('./features/kyc/kyc-page.tsx')));
const AdminRoutes = lazy(() => withLanguage(import('./features/admin/admin-routes.tsx')));
const NotFoundPage = lazy(() => withLanguage(import('./features/shell/not-found-page.tsx')));

const customer = (element: ReactNode) => <RequireVerifiedUser>{element}</RequireVerifiedUser>;
export function AppRoutes() {
  // A new boundary per page: an error on one page is forgotten once the customer goes elsewhere.
  const { pathname } = useLocation();
  // A change of language renders the page anew, so that every text on it (read with translate) is in the new one.
  const { language } = useTranslation();
  // The copy of a page the server drew goes as soon as the app is on another page (a redirect, a link).
  useLayoutEffect(() => {
    const copy = prerenderedPage();
    if (copy && copy.dataset.path !== pathname) copy.remove();
  }, [pathname]);
  return (
    <RouteErrorBoundary key={`${language}:${pathname}`}>
      <Suspense fallback={<FullPageLoader />}>
        <Routes>
          <Route path="/" element={<RedirectIfSignedIn>{<LandingPage />}</RedirectIfSignedIn>} />
          <Route path="/privacy" element={<PrivacyPage />} />
          <Route path="/terms" element={<TermsPage />} />
          <Route path="/contact" element={<ContactPage />} />
          <Route path="/login" element={<RedirectIfSignedIn>{<LoginPage />}</RedirectIfSignedIn>} />
          <Route path="/signup" element={<RedirectIfSignedIn>{<SignupPage />}</RedirectIfSignedIn>} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/verify-email" element={<VerifyEmailPage />} />
          <Route path="/verify-pin" element={<RequireSession>{<VerifyPinPage />}</RequireSession>} />
          <Route path="/pin-setup" element={<RequireSession>{<PinSetupPage />}</RequireSession>} />
          <Route path="/reset-pin" element={<ResetPinPage />} />

          <Route path="/dashboard" element={customer(<DashboardPage />)} />
          <Route path="/profile" element={customer(<ProfilePage />)} />
          <Route path="/wallet" element={customer(<WalletPage />)} />
          <Route path="/wallet/history" element={customer(<HistoryPage />)} />
          <Route path="/wallet/transactions/:kind/:id" element={customer(<TransactionPage />)} />
          <Route path="/notifications" element={customer(<NotificationsPage />)} />
          <Route path="/wallet/deposit" element={customer(<DepositPage />)} />
          <Route path="/wallet/withdraw" element={customer(<WithdrawPage />)} />
          <Route path="/wallet/wallets" element={customer(<CustomerWalletsPage />)} />
          <Route path="/referral-vip" element={customer(<ReferralsPage />)} />
          <Route path="/bank-accounts" element={customer(<BankAccountsPage />)} />
          <Route path="/kyc" element={customer(<KycPage />)} />

          <Route path="/admin/*" element={<AdminRoutes />} />
          <Route path="/file-upload" element={<Navigate to="/admin/settings" replace />} />

          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
