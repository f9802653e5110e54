import { AlertDialog as AlertDialogPrimitive, Dialog as DialogPrimitive } from 'radix-ui';
import { X } from 'lucide-react';
import { useRef, type ComponentProps, type ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';
import { Button } from './button.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

export const Dialog = DialogPrimitive.Root;

const overlayClass = 'fixed inset-0 z-40 bg-slate-900/50';
const panelClass =
  'fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl';

/**
 * Our dialogs open from state, not from a Radix trigger. Radix focuses the
 * dialog's first field on open (so fields inside must not use autoFocus, which
 * would move focus before the opener is known). This remembers the element that had focus when the dialog
 * opened and gives focus back to it when the dialog closes.
 */
function useFocusReturn() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    // Radix calls this before it moves focus into the dialog: focus is still on the opener.
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const element = opener.current;
      if (element && element !== document.body && element.isConnected) {
        event.preventDefault();
        element.focus();
      }
    },
  };
}

export function DialogContent({
  className,
  children,
  title,
  description,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { title: ReactNode; description?: ReactNode }) {
  const focusReturn = useFocusReturn();
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClass} />
      <DialogPrimitive.Content className={cn(panelClass, className)} {...focusReturn} {...(description ? {} : { 'aria-describedby': undefined })} {...props}>
        <DialogPrimitive.Title className="pr-8 text-lg font-semibold">{title}</DialogPrimitive.Title>
        {description && <DialogPrimitive.Description className="mt-1 text-sm text-slate-500">{description}</DialogPrimitive.Description>}
        <div className="mt-4">{children}</div>
        <DialogPrimitive.Close className="absolute right-4 top-4 rounded p-1 text-slate-500 hover:bg-slate-100" aria-label={t('shell.close')}>
          <X className="size-4" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** A yes/no confirmation with a Cancel button and a confirming action. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = t('shell.cancel'),
  destructive = false,
  busy = false,
  onConfirm,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  destructive?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  children?: ReactNode;
}) {
  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className={overlayClass} />
        <ConfirmDialogContent>
          <AlertDialogPrimitive.Title className="text-lg font-semibold">{title}</AlertDialogPrimitive.Title>
          <AlertDialogPrimitive.Description className="mt-2 text-sm text-slate-600">{description}</AlertDialogPrimitive.Description>
          {children && <div className="mt-4">{children}</div>}
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="outline" disabled={busy}>
                {cancelLabel}
              </Button>
            </AlertDialogPrimitive.Cancel>
            <Button
              variant={destructive ? 'destructive' : 'default'}
              disabled={busy}
              aria-busy={busy}
              onClick={(event) => {
                event.preventDefault();
                onConfirm();
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </ConfirmDialogContent>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}

function ConfirmDialogContent({ children }: { children: ReactNode }) {
  const focusReturn = useFocusReturn();
  return (
    <AlertDialogPrimitive.Content className={panelClass} {...focusReturn}>
      {children}
    </AlertDialogPrimitive.Content>
  );
}
