/** The admin reconciliation page (decision 045), loaded on demand by the admin routes. */
export const loadReconciliationPage = () => import('./reconciliation-page.tsx');
