import type { PayoutProviderName } from '#shared/contracts/payouts';
import { adminRoleGrantHandler, adminRoleRemovalHandler } from './admin/users-service.ts';
import { chainIncidentSettlementHandler } from './chain/incidents.ts';
import { depositKeyChangeHandler } from './deposit-addresses/keys.ts';
import { depositOverrideHandler } from './deposits/service.ts';
import { appFileChangeHandler } from './files/service.ts';
import { batchCancelHandler } from './payout-batches/service.ts';
import type { ChangeHandlers } from './pending-changes/service.ts';
import { addressChangeHandler, exchangeRatesChangeHandler, largeWithdrawalLimitChangeHandler } from './settings/service.ts';
import { accountUnfreezeHandler } from './kyc/account-controls.ts';
import { levelTwoApprovalHandler } from './kyc/documents/review.ts';
import { payeeAcceptanceHandler, payeeRejectionHandler } from './bank-accounts/validations.ts';
import { firstApprovalHandler, firstApprovalHandlerFor } from './withdrawals/service.ts';

/**
 * Who applies each kind of change that waits for a second admin (docs/decisions/033). Each
 * feature exports its handler; this module, imported by the app's wiring only, puts them
 * together, so no feature imports the registry that imports it. A new kind in
 * PENDING_CHANGE_KINDS fails to compile until it has a line here.
 */
export const PENDING_CHANGE_HANDLERS: ChangeHandlers = {
  deposit_address: addressChangeHandler,
  large_withdrawal_approval: firstApprovalHandler,
  admin_role_grant: adminRoleGrantHandler,
  admin_role_removal: adminRoleRemovalHandler,
  exchange_rates: exchangeRatesChangeHandler,
  large_withdrawal_limit: largeWithdrawalLimitChangeHandler,
  app_file: appFileChangeHandler,
  deposit_override: depositOverrideHandler,
  payout_batch_cancel: batchCancelHandler,
  chain_incident_settlement: chainIncidentSettlementHandler,
  deposit_xpub: depositKeyChangeHandler,
  account_unfreeze: accountUnfreezeHandler,
  kyc_level2_approval: levelTwoApprovalHandler,
  payee_acceptance: payeeAcceptanceHandler,
  payee_rejection: payeeRejectionHandler,
};

/** The handlers for this process's configuration: with a payout provider, a confirmed first approval sends the withdrawal through it (decision 043). */
export function pendingChangeHandlers(payoutProvider: PayoutProviderName | undefined): ChangeHandlers {
  return { ...PENDING_CHANGE_HANDLERS, large_withdrawal_approval: firstApprovalHandlerFor(payoutProvider) };
}
