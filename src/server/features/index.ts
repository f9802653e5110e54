import type { AppContext } from '../context.ts';
import type { ApiApp } from '../http/types.ts';
import { registerAdminRoutes } from './admin/routes.ts';
import { registerAuditRoutes } from './audit/routes.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { registerFileRoutes } from './files/routes.ts';
import { registerHealthRoutes } from './health/routes.ts';
import { registerPinRoutes } from './pin/routes.ts';
import { registerSettingsRoutes } from './settings/routes.ts';
import { registerUserRoutes } from './users/routes.ts';

/** Every feature's routes, registered once by buildApp(). Each feature adds its own line. */
export function registerFeatureRoutes(app: ApiApp, context: AppContext): void {
  registerHealthRoutes(app, context);
  registerAuthRoutes(app, context);
  registerUserRoutes(app, context);
  registerPinRoutes(app, context);
  registerSettingsRoutes(app, context);
  registerFileRoutes(app, context);
  registerAdminRoutes(app, context);
  registerAuditRoutes(app, context);
}
