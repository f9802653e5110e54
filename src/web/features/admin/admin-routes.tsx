import { lazy, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { FullPageLoader } from '../../components/ui/spinner.tsx';
import { useMe } from '../../lib/session.ts';
import { RequireVerifiedUser, canOpenAdminArea, loadNotFoundPage } from '../shell/index.ts';
import { loadReconciliationPage } from '../reconciliation/index.ts';

/*
 * Everything under /admin, loaded as one small chunk when an admin page opens: the
 * admin guards and the route table stay out of the landing page's first download.
 */

const AdminDashboardPage = lazy(() => import('./admin-dashboard-page.tsx'));
const AdminUsersPage = lazy(() => import('./users-page.tsx'));
const AdminUserDetailsPage = lazy(() => import('./user-details-page.tsx'));
const AdminUserTransactionsPage = lazy(() => import('./user-transactions-page.tsx'));
const AdminTransactionsPage = lazy(() => import('./transactions-page.tsx'));
const AdminSettingsPage = lazy(() => import('./settings-page.tsx'));
const AdminAuditLogPage = lazy(() => import('./audit-log-page.tsx'));
const AdminPayoutsPage = lazy(() => import('./payouts-page.tsx'));
const AdminPayoutCandidatesPage = lazy(() => import('./payout-candidates-page.tsx'));
const AdminPayoutBatchPage = lazy(() => import('./payout-batch-page.tsx'));
const AdminPayeeReviewPage = lazy(() => import('./payee-review-page.tsx'));
const AdminKycDeskPage = lazy(() => import('./kyc-desk-page.tsx'));
const AdminKycLevelTwoPage = lazy(() => import('./kyc-level-two-page.tsx'));
const ReconciliationPage = lazy(loadReconciliationPage);
const AdminDepositKeysPage = lazy(() => import('./deposit-keys-page.tsx'));
const NotFoundPage = lazy(loadNotFoundPage);

function RedirectWithToast({ to, message }: { to: string; message: string }) {
  useEffect(() => {
    // sonner loads on demand, keeping it out of the first visit's JavaScript.
    void import('sonner').then(({ toast }) => toast.error(message, { id: message }));
  }, [message]);
  return <Navigate to={to} replace />;
}

/** Admin area: role admin, or any VIP level (who sees only the spec's cards and the public settings; the server refuses them every /api/admin route). */
function RequireAdminArea({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <FullPageLoader />;
  if (!me.data) return <RedirectWithToast to="/login" message="Please login first" />;
  if (!canOpenAdminArea(me.data)) return <RedirectWithToast to="/dashboard" message="Unauthorized access" />;
  return children;
}

/** Pages inside the admin area that only the admin role may open. */
function RequireAdminRole({ children, deniedMessage = 'Access denied' }: { children: ReactNode; deniedMessage?: string }) {
  const me = useMe();
  if (me.isPending) return <FullPageLoader />;
  if (!me.data || me.data.role !== 'admin') return <RedirectWithToast to="/dashboard" message={deniedMessage} />;
  return children;
}

const adminArea = (element: ReactNode) => (
  <RequireVerifiedUser>
    <RequireAdminArea>{element}</RequireAdminArea>
  </RequireVerifiedUser>
);
const adminOnly = (element: ReactNode, deniedMessage?: string) => adminArea(<RequireAdminRole deniedMessage={deniedMessage}>{element}</RequireAdminRole>);

/** The routes below /admin (mounted at `/admin/*`, so the paths here are relative to it). */
export default function AdminRoutes() {
  return (
    <Routes>
      <Route index element={adminArea(<AdminDashboardPage />)} />
      <Route path="settings" element={adminArea(<AdminSettingsPage />)} />
      <Route path="users" element={adminOnly(<AdminUsersPage />)} />
      <Route path="users/:userId" element={adminOnly(<AdminUserDetailsPage />)} />
      <Route path="users/:userId/transactions" element={adminOnly(<AdminUserTransactionsPage />)} />
      <Route path="transactions" element={adminOnly(<AdminTransactionsPage />, 'Unauthorized')} />
      <Route path="audit-log" element={adminOnly(<AdminAuditLogPage />)} />
      <Route path="payouts" element={adminOnly(<AdminPayoutsPage />)} />
      <Route path="payouts/new" element={adminOnly(<AdminPayoutCandidatesPage />)} />
      <Route path="payouts/:batchId" element={adminOnly(<AdminPayoutBatchPage />)} />
      <Route path="payees" element={adminOnly(<AdminPayeeReviewPage />)} />
      <Route path="reconciliation" element={adminOnly(<ReconciliationPage />)} />
      <Route path="deposit-keys" element={adminOnly(<AdminDepositKeysPage />)} />
      <Route path="kyc" element={adminOnly(<AdminKycDeskPage />)} />
      <Route path="kyc/level2/:id" element={adminOnly(<AdminKycLevelTwoPage />)} />
      <Route path="rates" element={<Navigate to="/admin/settings" replace />} />
      <Route path="qr-codes" element={<Navigate to="/admin/settings" replace />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
