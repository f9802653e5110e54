/*
 * Toasts for code on the first visit's path (live updates, the landing page):
 * sonner and its Toaster load only when the first toast is shown, so they are
 * not part of the JavaScript a visitor downloads before doing anything.
 */

type Listener = () => void;
const listeners = new Set<Listener>();
let toasterRequested = false;

export function subscribeToToasterRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isToasterRequested(): boolean {
  return toasterRequested;
}

/** Makes the DeferredToaster mount; toasts created before it mounts are shown when it does. */
export function requestToaster(): void {
  if (toasterRequested) return;
  toasterRequested = true;
  for (const listener of listeners) listener();
}

export type NotifyKind = 'message' | 'success' | 'error' | 'info';

export function notify(kind: NotifyKind, title: string, options: { id?: string; description?: string } = {}): void {
  requestToaster();
  void import('sonner').then(({ toast }) => {
    if (kind === 'message') toast(title, options);
    else toast[kind](title, options);
  });
}
