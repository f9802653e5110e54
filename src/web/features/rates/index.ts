/** What other features may use of the rates feature: the rate card and the converter. */
export { RateCard } from './rate-card.tsx';
export { Converter } from './converter.tsx';
