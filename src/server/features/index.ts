import type { AppContext } from '../context.ts';
import { ServerLifecycle } from '../http/lifecycle.ts';
import type { ApiApp } from '../http/types.ts';
import { registerAdminRoutes } from './admin/routes.ts';
import { registerAuditRoutes } from '../platform/audit/routes.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { registerBankAccountRoutes } from './bank-accounts/routes.ts';
import { registerDepositRoutes } from './deposits/routes.ts';
import { registerEventRoutes } from '../platform/events/routes.ts';
import { registerFileRoutes } from './files/routes.ts';
import { registerHealthRoutes } from '../platform/health/routes.ts';
import { registerPinRoutes } from './pin/routes.ts';
import { registerReferralRoutes } from './referrals/routes.ts';
import { registerSettingsRoutes } from './settings/routes.ts';
import { registerTransactionRoutes } from './transactions/routes.ts';
import { registerTransferRoutes } from './transfers/routes.ts';
import { registerUserRoutes } from './users/routes.ts';
import { registerWalletRoutes } from './wallet/routes.ts';
import { registerWithdrawalRoutes } from './withdrawals/routes.ts';

/** Every feature's routes, registered once by buildApp(). Each feature adds its own line. */
export function registerFeatureRoutes(app: ApiApp, context: AppContext, lifecycle = new ServerLifecycle()): void {
  registerHealthRoutes(app, context, lifecycle);
  registerAuthRoutes(app, context);
  registerUserRoutes(app, context);
  registerPinRoutes(app, context);
  registerSettingsRoutes(app, context);
  registerFileRoutes(app, context);
  registerAdminRoutes(app, context);
  registerAuditRoutes(app, context);
  registerBankAccountRoutes(app, context);
  registerDepositRoutes(app, context);
  registerWithdrawalRoutes(app, context);
  registerTransferRoutes(app, context);
  registerTransactionRoutes(app, context);
  registerWalletRoutes(app, context);
  registerReferralRoutes(app, context);
  registerEventRoutes(app, context);
}
