import { Toaster } from 'sonner';

/** The one toast area of the app: top right, at most 3 visible, 5 s, F8 to focus. */
export default function AppToaster() {
  // Below the two-row page header, so that a toast never covers its Refresh and Sign out buttons.
  return (
    <Toaster position="top-right" offset={{ top: 112 }} mobileOffset={{ top: 112 }} visibleToasts={3} hotkey={['F8']} duration={5000} richColors closeButton />
  );
}
