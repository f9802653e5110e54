/*
 * What other features use of withdrawals. The feature's own code is split by concern:
 * request.ts (a customer's request), limits.ts (bounds and daily and monthly limits), views.ts
 * (what customers and admins see), decision-kind.ts (approve and reject through the decision
 * flow, and the gates by which large withdrawals need two admins) and tds-report.ts.
 */
export {
  findWithdrawalForUpdate,
  firstApprovalHandler,
  firstApprovalHandlerFor,
  withdrawalDecisionsFor,
  gateBatchPayment,
  heldPayoutDecisions,
  twoAdminThresholdInrPaise,
  withdrawalDecisions,
} from './decision-kind.ts';
