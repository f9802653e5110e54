/** Upper bounds on everything a client can send, shared by the forms and the server. */
export const LIMITS = {
  emailLength: 254,
  passwordMinLength: 6,
  passwordMaxLength: 128,
  nameLength: 100,
  phoneMaxDigits: 15,
  referralCodeLength: 10,
  pinLength: 4,
  pinAttempts: 3,
  /** Wrong PINs allowed per account in any 24 hours, across every session and address; never scaled. */
  pinFailuresPerDay: 10,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  searchQueryLength: 100,
  reasonLength: 500,
  payoutReferenceLength: 64,
  idempotencyKeyLength: 100,
  resetTokenLength: 64,
} as const;

export const EXAMPLE_PHONE = '+919876543210';
export const PRODUCT_NAME = 'Rupeedesk';

/** Referral codes are this five-letter brand prefix plus five random letters or digits. */
export const REFERRAL_CODE_PREFIX = 'RUPEE';
