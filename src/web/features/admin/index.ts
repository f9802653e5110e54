/** What other web features may use of the admin area: the desk's page frame. */
export { AdminPage } from './components/admin-page.tsx';
