/** What other features may use of the bank accounts feature: the customer's list, which the withdrawal form offers. */
export { useBankAccounts } from './api.ts';
