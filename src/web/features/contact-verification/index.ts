/** What other web features may use of the contact checks. */
export { SignupLocationAsk } from './signup-location-ask.tsx';
export { ContactChecksCard } from './contact-checks-card.tsx';
