/** Pending Deposit and Pending Withdrawal of the profile card; filled from the wallet summary once the wallet API exists. */
export function PendingTotals() {
  return null;
}
