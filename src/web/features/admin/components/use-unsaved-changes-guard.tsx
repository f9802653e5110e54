import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/dialog.tsx';

/**
 * Asks before leaving a page with unsaved edits. The app uses a plain BrowserRouter, where
 * react-router's useBlocker is not available, so in-app links are caught where they are clicked
 * (a capturing listener on the document) and the browser's own unload asks through beforeunload.
 * Returns the dialog to render.
 */
export function useUnsavedChangesGuard(dirty: boolean) {
  const navigate = useNavigate();
  const [target, setTarget] = useState<string | null>(null);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
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
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
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
          void navigate(destination);
        }}
      />
    ) : null;

  return { dialog };
}
