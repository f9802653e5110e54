/** What other features may use of the install feature. */
export { listenForInstallPrompt, useInstallPrompt } from './install-prompt.ts';
export { registerServiceWorker } from './service-worker.ts';
