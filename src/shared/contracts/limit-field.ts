import { z } from 'zod';
import type { DecimalParseFailure, DecimalParseResult } from '../money.ts';

/** Longest text a limit field takes, before it is parsed. */
const LIMIT_INPUT_LENGTH = 24;

/** What differs between the INR limits of KYC levels and the USDT limits of tiers: the unit, its parser and the words for a failure. */
export interface LimitAmount {
  unit: 'INR' | 'USDT';
  parse: (text: string) => DecimalParseResult;
  failureMessage: (label: string, reason: DecimalParseFailure) => string;
}

/** An optional limit in a settings form: empty or null means none, else an amount of the unit greater than 0. */
export function optionalLimitField(label: string, amount: LimitAmount) {
  return z
    .union([z.string(), z.null()], { error: `${label} must be an amount in ${amount.unit} or empty` })
    .transform((value) => (value === null ? '' : value.trim()))
    .pipe(
      z
        .string()
        .max(LIMIT_INPUT_LENGTH, `${label} is too long`)
        .superRefine((value, context) => {
          if (value === '') return;
          const parsed = amount.parse(value);
          if (!parsed.ok) context.addIssue({ code: 'custom', message: amount.failureMessage(label, parsed.reason) });
          else if (parsed.value <= 0n) context.addIssue({ code: 'custom', message: `${label} must be greater than 0 (leave it empty for no limit)` });
        }),
    );
}
