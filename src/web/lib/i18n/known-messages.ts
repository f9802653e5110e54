import { FULL_NAME_NEEDS_LETTER_MESSAGE, FORGOT_PASSWORD_EMAIL_MESSAGE, PASSWORD_CHANGED_MESSAGE, PROFILE_UPDATED_MESSAGE, SAME_PASSWORD_MESSAGE, WRONG_CURRENT_PASSWORD_MESSAGE } from '#shared/contracts/auth';
import { BANK_ACCOUNT_MESSAGES } from '#shared/contracts/bank-accounts';
import {
  CODE_EXPIRED_MESSAGE,
  EMAIL_ALREADY_VERIFIED_MESSAGE,
  EMAIL_CHANGED_MESSAGE,
  EMAIL_TAKEN_MESSAGE,
  EMAIL_VERIFIED_MESSAGE,
  PHONE_ALREADY_VERIFIED_MESSAGE,
  PHONE_VERIFIED_MESSAGE,
  SAME_EMAIL_MESSAGE,
  SMS_NOT_SENT_MESSAGE,
  VERIFICATION_LINK_EXPIRED_MESSAGE,
  VERIFICATION_LINK_INVALID_MESSAGE,
  VERIFICATION_LINK_SENT_MESSAGE,
  VERIFICATION_LINK_USED_MESSAGE,
} from '#shared/contracts/contact-verification';
import { DEPOSIT_MESSAGES } from '#shared/contracts/deposits';
import { FREEZE_MESSAGES, KYC_REFRESH_MESSAGES, PAN_MESSAGES, TAX_RESIDENCE_MESSAGES } from '#shared/contracts/kyc';
import { AMOUNT_TOO_LARGE_MESSAGE } from '#shared/contracts/money-common';
import { CONSENT_NOTICE_OUTDATED_MESSAGE, CONSENT_REQUIRED_MESSAGE } from '#shared/contracts/operator-identity';
import { INVALID_PIN_RESET_LINK_MESSAGE, PIN_RESET_LINK_SENT_MESSAGE, SAME_PIN_MESSAGE, WEAK_PIN_MESSAGE } from '#shared/contracts/pin';
import { TRANSFER_MESSAGES } from '#shared/contracts/transfers';
import { WALLET_MESSAGES } from '#shared/contracts/wallets';
import { WITHDRAWAL_RULE_MESSAGES } from '#shared/contracts/withdrawal-rules';
import { WITHDRAWAL_MESSAGES } from '#shared/contracts/withdrawals';
import { FORBIDDEN_CHARACTERS_MESSAGE } from '#shared/text';

/*
 * The English messages the customer's screens receive as text, from the shared schemas (form
 * validation) or the server (refusals, confirmations), each with its catalog key. The English catalog
 * holds each text verbatim under its key (tests/unit/i18n-catalogs.test.ts holds them equal), so an
 * English screen shows exactly what it was sent, and a Hindi screen shows the Hindi of the same key.
 * Kept free of the catalog loader so that the unit test can read it.
 */
export const KNOWN_MESSAGES = {
  // Any call (src/web/lib/api.ts, the server's error handler and rate limits).
  'Unable to connect to the server. Check your connection and try again.': 'message.cannotConnect',
  'Something went wrong on our side. Please try again.': 'message.serverFailed',
  'The request failed.': 'message.requestFailed',
  'Unable to connect to the database': 'message.databaseUnavailable',
  'Too many attempts. Please wait a few minutes and try again.': 'message.rateLimited',
  'Please log in to continue.': 'message.logInToContinue',
  // Sign-in, sign-up, passwords and the profile.
  'Email is required': 'message.emailRequired',
  'Email is too long': 'message.emailTooLong',
  'Email is invalid': 'message.emailInvalid',
  'Password is required': 'message.passwordRequired',
  'PIN is required': 'message.pinRequired',
  'PIN must be exactly 4 digits': 'message.pinExactly4',
  'PIN must be 4 digits': 'message.pin4',
  'PIN must be 4 digits.': 'message.pin4Stop',
  'PINs do not match': 'message.pinsDoNotMatch',
  'PINs do not match.': 'message.pinsDoNotMatchStop',
  'All fields are required': 'message.allFieldsRequired',
  'Please enter your 4-digit PIN': 'message.enterPin',
  'Please enter your account password': 'message.enterAccountPassword',
  'The account password is incorrect.': 'message.accountPasswordIncorrect',
  'Too many failed attempts': 'message.tooManyFailedAttempts',
  'Phone number is required': 'message.phoneRequired',
  'Phone must start with + (country code)': 'message.phoneStartsWithPlus',
  'Phone number must have at least 7 digits after country code': 'message.phoneDigits',
  'Referral code is not valid': 'message.referralCodeInvalid',
  'Full name is required': 'message.fullNameRequired',
  [FULL_NAME_NEEDS_LETTER_MESSAGE]: 'message.fullNameNeedsLetter',
  'Please confirm your password': 'message.confirmPassword',
  'Passwords do not match': 'message.passwordsDoNotMatch',
  'Please enter your email and password.': 'message.enterEmailAndPassword',
  [FORGOT_PASSWORD_EMAIL_MESSAGE]: 'message.forgotPasswordEmail',
  'Please enter a valid email address, such as name@example.com.': 'message.validEmail',
  'Please enter both password fields': 'auth.enterBothPasswords',
  'Please enter your current password': 'message.enterCurrentPassword',
  [PASSWORD_CHANGED_MESSAGE]: 'message.passwordChanged',
  [WRONG_CURRENT_PASSWORD_MESSAGE]: 'message.wrongCurrentPassword',
  [SAME_PASSWORD_MESSAGE]: 'message.samePassword',
  [PROFILE_UPDATED_MESSAGE]: 'message.profileUpdated',
  [WEAK_PIN_MESSAGE]: 'message.weakPin',
  [SAME_PIN_MESSAGE]: 'message.samePin',
  [PIN_RESET_LINK_SENT_MESSAGE]: 'message.pinResetLinkSent',
  [INVALID_PIN_RESET_LINK_MESSAGE]: 'pin.invalidLink',
  [FORBIDDEN_CHARACTERS_MESSAGE]: 'message.forbiddenCharacters',
  // Contact checks.
  [EMAIL_VERIFIED_MESSAGE]: 'message.emailVerified',
  [EMAIL_CHANGED_MESSAGE]: 'message.emailChanged',
  [EMAIL_ALREADY_VERIFIED_MESSAGE]: 'message.emailAlreadyVerified',
  [VERIFICATION_LINK_SENT_MESSAGE]: 'message.verificationLinkSent',
  [VERIFICATION_LINK_EXPIRED_MESSAGE]: 'message.verificationLinkExpired',
  [VERIFICATION_LINK_USED_MESSAGE]: 'message.verificationLinkUsed',
  [VERIFICATION_LINK_INVALID_MESSAGE]: 'contact.linkInvalidMessage',
  [SAME_EMAIL_MESSAGE]: 'message.sameEmail',
  [EMAIL_TAKEN_MESSAGE]: 'auth.emailRegistered',
  [PHONE_VERIFIED_MESSAGE]: 'message.phoneVerified',
  [PHONE_ALREADY_VERIFIED_MESSAGE]: 'message.phoneAlreadyVerified',
  [CODE_EXPIRED_MESSAGE]: 'message.codeExpired',
  [SMS_NOT_SENT_MESSAGE]: 'message.smsNotSent',
  // Deposits.
  [DEPOSIT_MESSAGES.invalidAmount]: 'message.invalidAmount',
  [DEPOSIT_MESSAGES.hashRequired]: 'message.hashRequired',
  [DEPOSIT_MESSAGES.hashTooLong]: 'message.hashTooLong',
  [DEPOSIT_MESSAGES.trc20HashShape]: 'message.trc20HashShape',
  [DEPOSIT_MESSAGES.erc20HashShape]: 'message.erc20HashShape',
  [DEPOSIT_MESSAGES.duplicateHash]: 'message.duplicateHash',
  [DEPOSIT_MESSAGES.networkUnavailable]: 'message.networkUnavailable',
  [DEPOSIT_MESSAGES.tooManyPending]: 'message.tooManyPendingDeposits',
  [DEPOSIT_MESSAGES.submitted]: 'message.depositSubmitted',
  [AMOUNT_TOO_LARGE_MESSAGE]: 'rates.amountTooLarge',
  // Withdrawals and transfers.
  [WITHDRAWAL_MESSAGES.minimum]: 'message.minimumWithdrawal',
  [WITHDRAWAL_MESSAGES.insufficientBalance]: 'message.insufficientBalance',
  [WITHDRAWAL_MESSAGES.selectBankAccount]: 'message.selectBankAccount',
  [WITHDRAWAL_MESSAGES.bankAccountNotFound]: 'message.bankAccountNotFound',
  [WITHDRAWAL_MESSAGES.incorrectPin]: 'pin.incorrectTryAgain',
  [WITHDRAWAL_MESSAGES.submitted]: 'message.withdrawalSubmitted',
  [WITHDRAWAL_MESSAGES.priceChanged]: 'message.priceChanged',
  [WITHDRAWAL_MESSAGES.cancelled]: 'message.withdrawalCancelled',
  [WITHDRAWAL_MESSAGES.cannotCancelProcessing]: 'message.cannotCancelProcessing',
  [WITHDRAWAL_MESSAGES.cannotCancelApproving]: 'message.cannotCancelApproving',
  [WITHDRAWAL_MESSAGES.cannotCancelDecided]: 'message.cannotCancelDecided',
  [WITHDRAWAL_RULE_MESSAGES.panRequired]: 'message.panRequired',
  [TRANSFER_MESSAGES.unknownRecipient]: 'message.unknownRecipient',
  [TRANSFER_MESSAGES.toSelf]: 'message.transferToSelf',
  [TRANSFER_MESSAGES.submitted]: 'message.transferSubmitted',
  // Bank accounts.
  [BANK_ACCOUNT_MESSAGES.holderTooShort]: 'message.holderTooShort',
  [BANK_ACCOUNT_MESSAGES.holderTooLong]: 'message.holderTooLong',
  [BANK_ACCOUNT_MESSAGES.accountNumberTooShort]: 'message.accountNumberTooShort',
  [BANK_ACCOUNT_MESSAGES.accountNumberTooLong]: 'message.accountNumberTooLong',
  [BANK_ACCOUNT_MESSAGES.accountNumberDigits]: 'message.accountNumberDigits',
  [BANK_ACCOUNT_MESSAGES.ifscLength]: 'message.ifscLength',
  [BANK_ACCOUNT_MESSAGES.ifscShape]: 'message.ifscShape',
  [BANK_ACCOUNT_MESSAGES.upiShape]: 'message.upiShape',
  [BANK_ACCOUNT_MESSAGES.holderNeedsLetter]: 'message.holderNeedsLetter',
  [BANK_ACCOUNT_MESSAGES.duplicate]: 'message.bankAccountDuplicate',
  [BANK_ACCOUNT_MESSAGES.added]: 'message.bankAccountAdded',
  [BANK_ACCOUNT_MESSAGES.updated]: 'message.bankAccountUpdated',
  [BANK_ACCOUNT_MESSAGES.deleted]: 'message.bankAccountDeleted',
  [BANK_ACCOUNT_MESSAGES.hasPendingWithdrawal]: 'message.bankAccountHasPendingWithdrawal',
  [BANK_ACCOUNT_MESSAGES.tooMany]: 'message.tooManyBankAccounts',
  [BANK_ACCOUNT_MESSAGES.confirmationMismatch]: 'message.accountNumberMismatch',
  [BANK_ACCOUNT_MESSAGES.confirmationRequired]: 'message.accountNumberConfirmationRequired',
  [BANK_ACCOUNT_MESSAGES.unknownIfsc]: 'message.unknownIfsc',
  // KYC.
  [PAN_MESSAGES.invalid]: 'message.panInvalid',
  [PAN_MESSAGES.notPlain]: 'message.panNotPlain',
  [PAN_MESSAGES.notPerson]: 'message.panNotPerson',
  [PAN_MESSAGES.taken]: 'message.panTaken',
  [PAN_MESSAGES.verifiedAlready]: 'message.panVerifiedAlready',
  [PAN_MESSAGES.tooManyAttempts]: 'message.panTooManyAttempts',
  [PAN_MESSAGES.verified]: 'message.panVerified',
  [PAN_MESSAGES.pendingReview]: 'message.panPendingReview',
  [PAN_MESSAGES.providerUnavailable]: 'message.panProviderUnavailable',
  [PAN_MESSAGES.rejectedInvalid]: 'message.panRejectedInvalid',
  [PAN_MESSAGES.rejectedName]: 'message.panRejectedName',
  [WITHDRAWAL_RULE_MESSAGES.panSaved]: 'message.panSaved',
  [TAX_RESIDENCE_MESSAGES.choose]: 'message.taxResidenceChoose',
  // A frozen account and the KYC refresh (decision 047).
  [FREEZE_MESSAGES.customer]: 'message.accountFrozen',
  [KYC_REFRESH_MESSAGES.overdue]: 'message.kycRefreshOverdue',
  [KYC_REFRESH_MESSAGES.due]: 'message.kycRefreshDue',
  [KYC_REFRESH_MESSAGES.notDue]: 'message.kycRefreshNotDue',
  [TAX_RESIDENCE_MESSAGES.countryNeeded]: 'message.taxResidenceCountryNeeded',
  [TAX_RESIDENCE_MESSAGES.countryTooLong]: 'message.taxResidenceCountryTooLong',
  [TAX_RESIDENCE_MESSAGES.confirmNeeded]: 'message.taxResidenceConfirmNeeded',
  [TAX_RESIDENCE_MESSAGES.declared]: 'message.taxResidenceDeclared',
  // The consent and privacy notice before KYC (decision 051).
  [CONSENT_NOTICE_OUTDATED_MESSAGE]: 'message.consentNoticeOutdated',
  [CONSENT_REQUIRED_MESSAGE]: 'message.consentRequired',
  // My wallets.
  [WALLET_MESSAGES.addressRequired]: 'message.walletAddressRequired',
  [WALLET_MESSAGES.erc20Address]: 'message.erc20Address',
  [WALLET_MESSAGES.trc20Address]: 'message.trc20Address',
  [WALLET_MESSAGES.signatureRequired]: 'message.signatureRequired',
} as const satisfies Record<string, string>;

/**
 * Messages with a value in them (an amount, a date, a count): the pattern reads the values, in the
 * order of the names, and the key's text puts them back. The English text of each key, with the
 * values filled in, is the message itself.
 */
export const KNOWN_MESSAGE_PATTERNS = [
  { pattern: /^Minimum deposit is (.+) USDT$/, key: 'message.minimumDeposit', names: ['amount'] },
  { pattern: /^The minimum withdrawal is (.+) USDT\.$/, key: 'message.minimumWithdrawalIs', names: ['amount'] },
  { pattern: /^The maximum withdrawal is (.+) USDT\.$/, key: 'message.maximumWithdrawalIs', names: ['amount'] },
  { pattern: /^Daily withdrawal limit of (.+) USDT reached: (.+) USDT left today\.$/, key: 'message.dailyLimit', names: ['limit', 'left'] },
  { pattern: /^Monthly withdrawal limit of (.+) USDT reached: (.+) USDT left this month\.$/, key: 'message.monthlyLimit', names: ['limit', 'left'] },
  { pattern: /^Your KYC level allows (.+) of withdrawals a day: (.+) left today\.$/, key: 'message.levelDailyLimit', names: ['limit', 'left'] },
  { pattern: /^Your KYC level allows (.+) of withdrawals a month: (.+) left this month\.$/, key: 'message.levelMonthlyLimit', names: ['limit', 'left'] },
  { pattern: /^Amount can have at most (\d+) decimal places\.$/, key: 'message.decimalPlaces', names: ['count'] },
  { pattern: /^Full name must be at most (\d+) characters$/, key: 'message.fullNameTooLong', names: ['count'] },
  { pattern: /^PIN verification failed\. (\d+) attempts? remaining\.$/, key: 'message.pinVerificationFailed', names: ['count'] },
  { pattern: /^Withdrawals are paused until (.+) because your PIN was reset recently\.$/, key: 'message.withdrawalsPausedPin', names: ['until'] },
  { pattern: /^Withdrawals are paused until (.+) because your password was changed recently\.$/, key: 'message.withdrawalsPausedPassword', names: ['until'] },
  { pattern: /^Transfers are paused until (.+) because your PIN was reset recently\.$/, key: 'message.transfersPausedPin', names: ['until'] },
  { pattern: /^Transfers are paused until (.+) because your password was changed recently\.$/, key: 'message.transfersPausedPassword', names: ['until'] },
  {
    pattern: /^Withdrawals to this bank account are paused until (.+) because it was added or its details changed recently\.$/,
    key: 'message.bankAccountPaused',
    names: ['until'],
  },
  {
    pattern: /^Too many wrong PINs on this account\. PIN checks are blocked until (.+), or until you reset your PIN by e-mail\.$/,
    key: 'message.pinBlocked',
    names: ['until'],
  },
] as const satisfies readonly { pattern: RegExp; key: string; names: readonly string[] }[];
