/**
 * What other features may do with user accounts: sign-up (auth) creates them, password and PIN
 * checks read the password hash, transfers find the recipient. Other features import this
 * module, never ./repository.ts (a lint rule checks it).
 */
export {
  adminExists,
  findCredentialsByEmail,
  findPasswordHash,
  findUserIdByReferralCode,
  insertProfile,
  insertUser,
  insertWallet,
  setRole,
  updatePasswordHash,
} from './repository.ts';
