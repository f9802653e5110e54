import type { AppContext } from '../context.ts';
import { ServerLifecycle } from '../http/lifecycle.ts';
import type { ApiApp } from '../http/types.ts';
import { registerEventRoutes } from '../platform/events/routes.ts';
import { registerHealthRoutes } from '../platform/health/routes.ts';
import { registerNotificationEmailDelivery, registerNotificationRoutes } from '../platform/notifications/routes.ts';
import { registerAdminArea, registerCustomerArea, registerSignedInArea } from '../platform/sessions/areas.ts';
import { registerAdminRoutes } from './admin/routes.ts';
import { registerAccountClosingRoutes, registerAuthRoutes, registerPasswordChangeRoutes } from './auth/routes.ts';
import { registerBankAccountRoutes } from './bank-accounts/routes.ts';
import { registerPayeeAdminRoutes, registerPayeeValidationWebhookRoutes } from './bank-accounts/validation-routes.ts';
import { registerChainAdminRoutes } from './chain/routes.ts';
import { registerConsentRoutes } from './consent/routes.ts';
import { registerContactVerificationRoutes, registerEmailChangeRoutes, registerEmailLinkRoutes } from './contact-verification/routes.ts';
import { registerDepositAddressRoutes, registerDepositKeyAdminRoutes } from './deposit-addresses/routes.ts';
import { registerReconciliationAdminRoutes } from './reconciliation/routes.ts';
import { registerDepositAdminRoutes, registerDepositRoutes } from './deposits/routes.ts';
import { registerFileAdminRoutes, registerPublicFileRoutes } from './files/routes.ts';
import { registerKycAdminRoutes, registerKycRoutes } from './kyc/routes.ts';
import { registerPayoutBatchAdminRoutes } from './payout-batches/routes.ts';
import { pendingChangeHandlers } from './pending-change-handlers.ts';
import { registerPayoutAdminRoutes, registerPayoutRoutes, registerPayoutWebhookRoutes } from './payouts/routes.ts';
import { payoutProviderFromConfig } from './payouts/worker.ts';
import { registerPendingChangeAdminRoutes } from './pending-changes/routes.ts';
import { registerPinChangeRoutes, registerPinResetCompletionRoutes, registerPinRoutes } from './pin/routes.ts';
import { registerReferralRoutes } from './referrals/routes.ts';
import { registerSecurityRoutes } from './security/routes.ts';
import { registerSettingsAdminRoutes, registerSettingsRoutes } from './settings/routes.ts';
import { registerStatementRoutes } from './statements/routes.ts';
import { registerTransactionRoutes } from './transactions/routes.ts';
import { registerTransferAdminRoutes, registerTransferRoutes } from './transfers/routes.ts';
import { registerUserCustomerRoutes, registerUserRoutes } from './users/routes.ts';
import { registerWalletRoutes } from './wallet/routes.ts';
import { registerCustomerWalletRoutes } from './wallets/routes.ts';
import { registerWithdrawalAdminRoutes, registerWithdrawalRoutes } from './withdrawals/routes.ts';
import { payeeCheckConfig } from '../env.ts';

/**
 * Every route, registered once by buildApp(), each in the area that decides who
 * may call it (see platform/sessions/areas.ts). A route outside an area is public.
 */
export function registerFeatureRoutes(app: ApiApp, context: AppContext, lifecycle = new ServerLifecycle()): void {
  registerHealthRoutes(app, context, lifecycle);
  registerAuthRoutes(app, context);
  registerEmailLinkRoutes(app, context);
  registerPinResetCompletionRoutes(app, context);
  registerSettingsRoutes(app, context);
  registerPublicFileRoutes(app, context);
  registerEventRoutes(app, context);
  // Before the areas, so that its hook also sees the admin decision routes.
  registerNotificationEmailDelivery(app, context);
  const payoutProvider = context.config.payoutProvider ? payoutProviderFromConfig(context.config.payoutProvider) : undefined;
  if (payoutProvider) registerPayoutWebhookRoutes(app, context, payoutProvider);
  const payeeCheck = payeeCheckConfig(context.config);
  // Cashfree's verification answers in the request (decision 062): only RazorpayX's validations come by webhook.
  if (payeeCheck?.provider === 'razorpayx') registerPayeeValidationWebhookRoutes(app, context, payeeCheck);

  registerSignedInArea(app, (area) => {
    registerUserRoutes(area);
    registerPinRoutes(area, context);
    registerSecurityRoutes(area, context);
    registerContactVerificationRoutes(area, context);
  });

  registerCustomerArea(app, (area) => {
    registerPinChangeRoutes(area, context);
    registerPasswordChangeRoutes(area, context);
    registerAccountClosingRoutes(area, context);
    registerEmailChangeRoutes(area, context);
    registerBankAccountRoutes(area, context);
    registerDepositRoutes(area, context);
    registerDepositAddressRoutes(area, context);
    registerWithdrawalRoutes(area, context);
    registerPayoutRoutes(area, context);
    registerTransferRoutes(area, context);
    registerTransactionRoutes(area, context);
    registerStatementRoutes(area, context);
    registerWalletRoutes(area, context);
    registerCustomerWalletRoutes(area, context);
    registerReferralRoutes(area, context);
    registerNotificationRoutes(area, context);
    registerUserCustomerRoutes(area, context);
    registerKycRoutes(area, context);
    registerConsentRoutes(area, context);
  });

  registerAdminArea(app, (area) => {
    registerAdminRoutes(area, context);
    registerFileAdminRoutes(area, context);
    registerSettingsAdminRoutes(area, context);
    registerDepositAdminRoutes(area, context);
    registerChainAdminRoutes(area, context);
    registerDepositKeyAdminRoutes(area, context);
    registerReconciliationAdminRoutes(area, context);
    registerWithdrawalAdminRoutes(area, context);
    registerPayoutBatchAdminRoutes(area, context);
    registerPayoutAdminRoutes(area, context, payoutProvider);
    registerPendingChangeAdminRoutes(area, context, pendingChangeHandlers(context.config.payoutProvider?.provider));
    registerTransferAdminRoutes(area, context);
    registerKycAdminRoutes(area, context);
    registerPayeeAdminRoutes(area, context);
  });
}
