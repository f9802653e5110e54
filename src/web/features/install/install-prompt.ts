import { useSyncExternalStore } from 'react';

/** Chromium's event offering to install the app (not in the DOM's standard types). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferredPrompt: BeforeInstallPromptEvent | undefined;
const listeners = new Set<() => void>();
let listening = false;

function setPrompt(next: BeforeInstallPromptEvent | undefined): void {
  deferredPrompt = next;
  for (const listener of listeners) listener();
}

/**
 * Keeps the browser's install offer for a button to use later. Started by the
 * background services right after the first render, since the browser fires it only once per page.
 */
export function listenForInstallPrompt(): void {
  if (listening) return;
  listening = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    setPrompt(event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => setPrompt(undefined));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The pending install offer, or undefined when the browser made none (installed already, or not supported). */
export function useInstallPrompt(): { canInstall: boolean; install: () => Promise<void> } {
  const prompt = useSyncExternalStore(
    subscribe,
    () => deferredPrompt,
    () => undefined,
  );
  return {
    canInstall: prompt !== undefined,
    install: async () => {
      if (!prompt) return;
      // An offer can be shown once; whatever the answer, it is used up.
      setPrompt(undefined);
      await prompt.prompt();
    },
  };
}
