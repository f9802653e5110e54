import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/dialog.tsx';

/** Marks the extra history entry that stands between the page and the browser's Back button. */
const GUARD_MARK = 'unsavedChangesGuard';

function isGuardEntry(state: unknown): boolean {
  return typeof state === 'object' && state !== null && GUARD_MARK in state;
}

/**
 * Asks before leaving a page with unsaved edits. The app uses a plain BrowserRouter, where
 * react-router's useBlocker is not available (a data router would not fit the landing page's
 * budget), so in-app links are caught where they are clicked (a capturing listener on the
 * document), the browser's own unload asks through beforeunload, and the Back button meets a
 * copy of the current history entry first: going back to the page itself, the guard asks, and
 * leaving goes back past it. Returns the dialog to render.
 */
export function useUnsavedChangesGuard(dirty: boolean) {
  const navigate = useNavigate();
  // A path for a link, or 'back' for the browser's Back button.
  const [target, setTarget] = useState<string | null>(null);
  const leaving = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    // The same entry again, marked (React Router keeps its own keys in the state and ignores the mark).
    const guard = () => window.history.pushState({ ...(window.history.state as object | null), [GUARD_MARK]: true }, '', window.location.href);
    if (!isGuardEntry(window.history.state)) guard();
    const onPopState = (event: PopStateEvent) => {
      if (leaving.current || isGuardEntry(event.state)) return;
      // Back left the guard entry for the page itself: stand guard again and ask.
      guard();
      setTarget('back');
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // Leaving was already confirmed (Back past the app's first page).
      if (leaving.current) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement) || anchor.target === '_blank' || anchor.hasAttribute('download')) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      const destination = `${url.pathname}${url.search}${url.hash}`;
      if (destination === `${window.location.pathname}${window.location.search}${window.location.hash}`) return;
      event.preventDefault();
      event.stopPropagation();
      setTarget(destination);
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('popstate', onPopState);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('popstate', onPopState);
      document.removeEventListener('click', onClick, true);
      // Saved (still on the page): the guard entry is no longer needed.
      if (isGuardEntry(window.history.state)) window.history.back();
    };
  }, [dirty]);

  const dialog =
    target !== null ? (
      <ConfirmDialog
        open
        onOpenChange={(open) => {
          if (!open) setTarget(null);
        }}
        title="Leave without saving?"
        description="You have changed settings that are not saved yet. If you leave this page, those changes are lost."
        confirmLabel="Leave without saving"
        cancelLabel="Stay on this page"
        destructive
        onConfirm={() => {
          const destination = target;
          setTarget(null);
          // Back goes past the guard entry and the page's own.
          if (destination === 'back') {
            leaving.current = true;
            window.history.go(-2);
          } else void navigate(destination);
        }}
      />
    ) : null;

  return { dialog };
}
