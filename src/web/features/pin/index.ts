/** What other features may use of the PIN feature: the form that changes it. */
export { ChangePinForm } from './change-pin-form.tsx';
