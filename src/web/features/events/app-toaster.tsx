import { Toaster } from 'sonner';

/** The one toast area of the app: top right, at most 3 visible, 5 s, F8 to focus. */
export default function AppToaster() {
  return <Toaster position="top-right" visibleToasts={3} hotkey={['F8']} duration={5000} richColors closeButton />;
}
