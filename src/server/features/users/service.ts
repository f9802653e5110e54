/**
 * What other features may do with user accounts: sign-up (auth) creates them, password and PIN
 * checks read the password hash, transfers find the recipient. Other features import this
 * module, never ./repository.ts (a lint rule checks it).
 */
export {
  adminExists,
  findCredentialsByEmail,
  findEmail,
  findPasswordHash,
  findUserIdByReferralCode,
  insertPasswordResetTokenForEmail,
  insertProfile,
  insertUser,
  insertWallet,
  markPasswordReset,
  roundTrip,
  setRole,
  updatePasswordHash,
} from './repository.ts';
