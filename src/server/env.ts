import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { LivenessStep } from '#shared/contracts/kyc-documents';
import { accountExtendedPublicKeyProblem } from './features/deposit-addresses/derivation.ts';

/** Configuration of one server process, read once at start-up from the environment. */
export interface AppConfig {
  port: number;
  host: string;
  dataDirectory: string;
  databaseUrl: string | undefined;
  appOrigin: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Told of every deposit address change made without a second admin (decision 017); the MAIL_FROM address unless SUPPORT_EMAIL is set. */
  supportEmail: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Multiplies the per-address rate limits, for deployments where many customers share one address (carrier NAT). */
  rateLimitScale: number;
  /** Addresses and CIDR ranges of the reverse proxies whose X-Forwarded-For is believed; undefined trusts none. */
  trustProxy: string[] | undefined;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** When set, /metrics is served on this port only (bound to HOST), not on PORT. */
  metricsPort: number | undefined;
  /** Hours that withdrawals and transfers pause after a PIN or password reset or a bank-account change (0: never). */
  securityCoolingOffHours: number;
  /** Who may read the API documentation at /api/docs: nobody, admins, or everyone. */
  apiDocs: 'off' | 'admin' | 'public';
  /** Where deposits are verified on the blockchain; both networks absent means nothing is checked (as before). */
  chain: ChainConfig;
  /** Per network, the account-level extended public key customers' own deposit addresses are derived from (decision 035); undefined: the shared address. */
  depositExtendedPublicKeys: Record<DepositNetwork, string | undefined>;
  /** The payout provider approved withdrawals are paid through (decision 043); undefined: bank files only, as before. */
  payoutProvider: PayoutProviderConfig | undefined;
  /** Where text messages (the mobile one-time codes) go: the SMS outbox table unless SMS_PROVIDER names a provider (decision 041). */
  sms: SmsConfig;
  /** The PAN verification provider (KYC_PROVIDER); undefined: an admin verifies each PAN (decision 042). */
  kyc: KycProviderConfig | undefined;
  /** The master key of KYC images (KYC_ENCRYPTION_KEY, 32 bytes as base64 or hex); undefined: generated into DATA_DIR (decision 050). */
  kycEncryptionKey: string | undefined;
  /** The live selfie's fixed challenge (KYC_LIVENESS_CHALLENGE, for tests whose camera plays a clip); undefined: random (decision 052). */
  kycLivenessChallenge: LivenessStep[] | undefined;
  /** The operator's name as customers' statements show it (OPERATOR_NAME). */
  operatorName: string;
  /** Where an IFSC's branch is asked (IFSC_API_URL, decision 067); undefined (`off`): the form names the bank only. */
  ifscApiUrl: string | undefined;
}

export type SmsConfig =
  | { provider: 'outbox' }
  | { provider: 'msg91'; apiUrl: string; authKey: string; templateId: string }
  | { provider: 'twilio'; apiUrl: string; accountSid: string; authToken: string; from: string };

/** The providers' public API bases; SMS_API_URL replaces them (a test's stand-in, a regional endpoint). */
export const MSG91_DEFAULT_API_URL = 'https://control.msg91.com';
export const TWILIO_DEFAULT_API_URL = 'https://api.twilio.com';

/** What every payout provider's configuration has: the worker's pace and when a payout is stuck. */
interface PayoutWorkerPace {
  /** How often the payout worker looks for work; a payout without a final state is asked about with backoff from this. */
  pollSeconds: number;
  /** A payout not settled this many minutes after it was handed to the provider, or with an error, is stuck: admins are told once (PAYOUT_STUCK_MINUTES). */
  stuckMinutes: number;
}

/** PAYOUT_PROVIDER=razorpayx and its RAZORPAYX_* variables. */
export interface RazorpayXConfig extends PayoutWorkerPace {
  provider: 'razorpayx';
  apiUrl: string;
  keyId: string;
  keySecret: string;
  /** Our RazorpayX business account (the current account or customer identifier) payouts are debited from. */
  accountNumber: string;
  webhookSecret: string;
}

/** PAYOUT_PROVIDER=cashfree and its CASHFREE_PAYOUTS_* variables (decision 062): the client secret also signs webhooks. */
export interface CashfreePayoutsConfig extends PayoutWorkerPace {
  provider: 'cashfree';
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** The time one reconciliation by status may take (45 seconds when absent); not read from the environment, a test shortens it. */
  reconciliationBudgetSeconds?: number;
}

export type PayoutProviderConfig = RazorpayXConfig | CashfreePayoutsConfig;

/** PAYOUT_PROVIDER=cashfree's payee check: Cashfree's Bank Account Verification V2, on the Verification API's credentials (KYC_*). */
export interface CashfreePayeeCheckConfig {
  provider: 'cashfree';
  verification: KycProviderConfig;
  pollSeconds: number;
}

/** The provider that checks new payees by a penny drop (decisions 054 and 062). */
export type PayeeCheckConfig = RazorpayXConfig | CashfreePayeeCheckConfig;

/**
 * RazorpayX's Fund Account Validation with PAYOUT_PROVIDER=razorpayx; with PAYOUT_PROVIDER=cashfree, Cashfree's Bank
 * Account Verification, which is a Verification API product: it is built only when KYC_PROVIDER=cashfree gives that
 * API's credentials (decision 062). Otherwise payees follow the rules of no provider.
 */
export function payeeCheckConfig(config: {
  payoutProvider?: PayoutProviderConfig | undefined;
  kyc?: KycProviderConfig | undefined;
}): PayeeCheckConfig | undefined {
  const payouts = config.payoutProvider;
  if (payouts?.provider === 'razorpayx') return payouts;
  if (payouts?.provider === 'cashfree' && config.kyc) return { provider: 'cashfree', verification: config.kyc, pollSeconds: payouts.pollSeconds };
  return undefined;
}

export const DEFAULT_RAZORPAYX_API_URL = 'https://api.razorpay.com';
/** Razorpay's public IFSC API: GET {url}/{IFSC} answers the branch (decision 067). */
export const DEFAULT_IFSC_API_URL = 'https://ifsc.razorpay.com';
/** Cashfree Payouts V2's production base; its paths start with /payout. */
export const DEFAULT_CASHFREE_PAYOUTS_API_URL = 'https://api.cashfree.com';

/** Cashfree's Verification API: POST {apiUrl}/verification/pan with the client id and secret. */
export interface KycProviderConfig {
  provider: 'cashfree';
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

export const DEFAULT_CASHFREE_API_URL = 'https://api.cashfree.com';

const DEFAULT_MAIL_FROM = 'Rupeedesk <no-reply@rupeedesk.local>';
const DEFAULT_OPERATOR_NAME = 'Rupeedesk';

/** Fewer confirmations than this are not final on Ethereum mainnet; only CHAIN_DEV_CONFIRMATIONS (local chains) goes lower. */
export const MIN_ERC20_CONFIRMATIONS = 12;
export const DEFAULT_USDT_ERC20_CONTRACT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
export const DEFAULT_USDT_TRC20_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

export interface ChainConfig {
  /** `devConfirmations`: the confirmations come from CHAIN_DEV_CONFIRMATIONS, for a local chain only (logged loudly at start). */
  ethereum: { rpcUrl: string; usdtContract: string; confirmations: number | undefined; devConfirmations?: true } | undefined;
  /** One URL (TRON_API_URL, or either node URL alone) serves both, as TronGrid does; a self-hosted node has two ports. */
  tron: { fullNodeUrl: string; solidityNodeUrl: string; apiKey: string | undefined; usdtContract: string } | undefined;
  pollSeconds: number;
}

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

const optionalText = z
  .string()
  .transform((value) => value.trim())
  .optional()
  .transform((value) => (value === '' ? undefined : value));

function isUrlWithProtocol(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function urlWithProtocols(protocols: string[], description: string) {
  return optionalText.refine((value) => value === undefined || isUrlWithProtocol(value, protocols), { message: `must be ${description}` });
}

/** proxy-addr's names for whole address families, accepted beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

function listOf(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

const portNumber = optionalText.refine((value) => value === undefined || (/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535), {
  message: 'must be a whole number from 1 to 65535',
});

const environmentSchema = z.object({
  PORT: portNumber,
  HOST: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9.:-]{1,253}$/.test(value), {
    message: 'must be a host name or IP address',
  }),
  DATA_DIR: optionalText,
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:'], 'a postgres:// URL'),
  APP_ORIGIN: urlWithProtocols(['http:', 'https:'], 'an http:// or https:// origin such as https://wallet.example.com').refine(
    (value) => value === undefined || new URL(value).origin === value.replace(/\/$/, ''),
    { message: 'must be an origin only (scheme, host and port, no path)' },
  ),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL'),
  MAIL_FROM: optionalText.refine((value) => value === undefined || z.email().safeParse(value.replace(/^.*<(.+)>$/, '$1')).success, {
    message: 'must be an e-mail address, optionally as "Name <address>"',
  }),
  SUPPORT_EMAIL: optionalText.refine((value) => value === undefined || z.email().safeParse(value).success, {
    message: 'must be an e-mail address',
  }),
  ADMIN_EMAIL: optionalText.refine((value) => value === undefined || z.email().safeParse(value).success, {
    message: 'must be an e-mail address',
  }),
  ADMIN_PASSWORD: optionalText.refine((value) => value === undefined || (value.length >= 8 && value.length <= 128), {
    message: 'must be 8 to 128 characters long',
  }),
  RATE_LIMIT_SCALE: optionalText.refine((value) => value === undefined || (/^\d{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= 1000), {
    message: 'must be a whole number from 1 to 1000',
  }),
  SECURITY_COOLING_OFF_HOURS: optionalText.refine((value) => value === undefined || (/^\d{1,3}$/.test(value) && Number(value) <= 720), {
    message: 'must be a whole number of hours from 0 to 720',
  }),
  API_DOCS: z.enum(['off', 'admin', 'public']).optional(),
  ETHEREUM_RPC_URL: urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL of an Ethereum JSON-RPC endpoint'),
  USDT_ERC20_CONTRACT: optionalText.refine((value) => value === undefined || /^0x[0-9a-fA-F]{40}$/.test(value), {
    message: 'must be an Ethereum address (0x followed by 40 hexadecimal characters)',
  }),
  ERC20_CONFIRMATIONS: optionalText.refine(
    (value) => value === undefined || (/^\d{1,4}$/.test(value) && Number(value) >= MIN_ERC20_CONFIRMATIONS && Number(value) <= 1000),
    {
      message: `must be a whole number from ${MIN_ERC20_CONFIRMATIONS} to 1000 (it may only make the finalized block safer; for a local chain use CHAIN_DEV_CONFIRMATIONS)`,
    },
  ),
  CHAIN_DEV_CONFIRMATIONS: optionalText.refine((value) => value === undefined || (/^\d{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= 1000), {
    message: 'must be a whole number from 1 to 1000',
  }),
  TRON_API_URL: urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL of a TRON full node HTTP API or a TronGrid-compatible service'),
  TRON_FULL_NODE_URL: urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL of a TRON full node HTTP API (/wallet, port 8090 on a java-tron node)'),
  TRON_SOLIDITY_NODE_URL: urlWithProtocols(
    ['http:', 'https:'],
    'an http:// or https:// URL of a TRON solidity node HTTP API (/walletsolidity, port 8091 on a java-tron node)',
  ),
  TRON_API_KEY: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9-]{1,100}$/.test(value), {
    message: 'must be an API key of letters, digits and dashes',
  }),
  USDT_TRC20_CONTRACT: optionalText.refine((value) => value === undefined || /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(value), {
    message: 'must be a TRON address (T followed by 33 base58 characters)',
  }),
  CHAIN_POLL_SECONDS: optionalText.refine((value) => value === undefined || (/^\d{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= 3600), {
    message: 'must be a whole number of seconds from 1 to 3600',
  }),
  TRUST_PROXY: optionalText.refine((value) => value === undefined || (listOf(value).length > 0 && listOf(value).every(isProxyAddressOrRange)), {
    message: 'must be a comma-separated list of IP addresses or CIDR ranges of your reverse proxies, such as 10.0.0.0/8,127.0.0.1',
  }),
  METRICS_TOKEN: optionalText.refine((value) => value === undefined || /^[\x21-\x7e]{16,256}$/.test(value), {
    message: 'must be 16 to 256 printable characters without spaces',
  }),
  METRICS_PORT: portNumber,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  PAYOUT_PROVIDER: z.enum(['razorpayx', 'cashfree'], { error: 'must be razorpayx or cashfree, or unset for bank files only' }).optional(),
  RAZORPAYX_API_URL: urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL of the RazorpayX API'),
  IFSC_API_URL: optionalText.refine((value) => value === undefined || value === 'off' || isUrlWithProtocol(value, ['http:', 'https:']), {
    message: 'must be an http:// or https:// URL of the IFSC API, or off',
  }),
  RAZORPAYX_KEY_ID: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9_]{4,64}$/.test(value), {
    message: 'must be a RazorpayX key id (letters, digits, underscores)',
  }),
  RAZORPAYX_KEY_SECRET: optionalText.refine((value) => value === undefined || /^[\x21-\x7e]{8,128}$/.test(value), {
    message: 'must be 8 to 128 printable characters',
  }),
  RAZORPAYX_ACCOUNT_NUMBER: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9]{4,40}$/.test(value), {
    message: 'must be your RazorpayX account number (letters and digits)',
  }),
  RAZORPAYX_WEBHOOK_SECRET: optionalText.refine((value) => value === undefined || /^[\x21-\x7e]{8,256}$/.test(value), {
    message: 'must be 8 to 256 printable characters',
  }),
  CASHFREE_PAYOUTS_API_URL: urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL of the Cashfree Payouts API'),
  CASHFREE_PAYOUTS_CLIENT_ID: optionalText.refine((value) => value === undefined || /^[\x21-\x7e]{4,200}$/.test(value), {
    message: 'must be the Cashfree Payouts client id (4 to 200 printable characters)',
  }),
  CASHFREE_PAYOUTS_CLIENT_SECRET: optionalText.refine((value) => value === undefined || /^[\x21-\x7e]{8,500}$/.test(value), {
    message: 'must be the Cashfree Payouts client secret (8 to 500 printable characters)',
  }),
  PAYOUT_POLL_SECONDS: optionalText.refine((value) => value === undefined || (/^\d{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= 3600), {
    message: 'must be a whole number of seconds from 1 to 3600',
  }),
  PAYOUT_STUCK_MINUTES: optionalText.refine((value) => value === undefined || (/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 10080), {
    message: 'must be a whole number of minutes from 1 to 10080',
  }),
  DEPOSIT_XPUB_ERC20: extendedPublicKeyOf('ERC20'),
  DEPOSIT_XPUB_TRC20: extendedPublicKeyOf('TRC20'),
  SMS_PROVIDER: z.enum(['msg91', 'twilio'], { message: 'must be msg91 or twilio, or unset to keep text messages in the SMS outbox' }).optional(),
  SMS_API_URL: urlWithProtocols(['http:', 'https:'], "an http:// or https:// URL of the SMS provider's API"),
  SMS_AUTH_KEY: optionalText.refine((value) => value === undefined || /^[\x21-\x7e]{8,200}$/.test(value), {
    message: 'must be the MSG91 authkey (8 to 200 printable characters)',
  }),
  SMS_TEMPLATE_ID: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9_-]{1,100}$/.test(value), {
    message: 'must be the MSG91 flow template id (letters, digits, _ and -)',
  }),
  SMS_ACCOUNT_SID: optionalText.refine((value) => value === undefined || /^AC[0-9a-fA-F]{32}$/.test(value), {
    message: 'must be a Twilio Account SID (AC followed by 32 hexadecimal characters)',
  }),
  SMS_AUTH_TOKEN: optionalText.refine((value) => value === undefined || /^[\x21-\x7e]{16,200}$/.test(value), {
    message: 'must be the Twilio Auth Token (16 to 200 printable characters)',
  }),
  SMS_FROM: optionalText.refine((value) => value === undefined || /^(\+[0-9]{8,15}|MG[0-9a-fA-F]{32}|[A-Za-z0-9]{1,11})$/.test(value), {
    message: 'must be the sending number (+ and digits), a Messaging Service SID (MG...) or an alphanumeric sender ID of up to 11 characters',
  }),
  OPERATOR_NAME: optionalText.refine((value) => value === undefined || /^\P{Cc}{1,120}$/u.test(value), {
    message: 'must be at most 120 characters on one line',
  }),
  KYC_ENCRYPTION_KEY: optionalText.refine((value) => value === undefined || /^[0-9a-fA-F]{64}$/.test(value) || /^[A-Za-z0-9+/]{43}=$/.test(value), {
    message: 'must be 32 bytes as 64 hexadecimal digits or 44 base64 characters (openssl rand -base64 32)',
  }),
  KYC_LIVENESS_CHALLENGE: optionalText.refine(
    (value) => value === undefined || /^(blink|turn_left|turn_right)(,(blink|turn_left|turn_right)){0,4}$/.test(value),
    {
      message: 'must be unset (random) or steps among blink, turn_left and turn_right separated by commas',
    },
  ),
  KYC_PROVIDER: z.enum(['cashfree'], { error: 'must be cashfree, or unset for PANs verified by an admin' }).optional(),
  KYC_API_URL: urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL of the KYC provider API'),
  KYC_CLIENT_ID: optionalText.refine((value) => value === undefined || /^[\x21-\x7e]{1,200}$/.test(value), {
    message: 'must be 1 to 200 printable characters',
  }),
  KYC_CLIENT_SECRET: optionalText.refine((value) => value === undefined || /^[\x21-\x7e]{1,500}$/.test(value), {
    message: 'must be 1 to 500 printable characters',
  }),
});

/** An account-level extended public key; anything private (xprv, mnemonic, hex key) is refused with its reason. */
function extendedPublicKeyOf(network: DepositNetwork) {
  return optionalText.superRefine((value, context) => {
    const problem = value === undefined ? undefined : accountExtendedPublicKeyProblem(network, value);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  });
}

/** Variables whose values an error message never repeats: secrets, and the deposit keys, where a private key may have been pasted by mistake. */
const UNSHOWN_VARIABLES = [
  'SMS_AUTH_KEY',
  'SMS_AUTH_TOKEN',
  'RAZORPAYX_KEY_SECRET',
  'RAZORPAYX_WEBHOOK_SECRET',
  'CASHFREE_PAYOUTS_CLIENT_SECRET',
  'ADMIN_PASSWORD',
  'METRICS_TOKEN',
  'DATABASE_URL',
  'SMTP_URL',
  'ETHEREUM_RPC_URL',
  'TRON_API_KEY',
  'DEPOSIT_XPUB_ERC20',
  'DEPOSIT_XPUB_TRC20',
  'KYC_CLIENT_SECRET',
  'KYC_ENCRYPTION_KEY',
];

/** TRON's two node URLs; one given alone serves both (TronGrid answers /wallet and /walletsolidity at one URL). */
function tronConfig(values: {
  TRON_API_URL?: string | undefined;
  TRON_FULL_NODE_URL?: string | undefined;
  TRON_SOLIDITY_NODE_URL?: string | undefined;
  TRON_API_KEY?: string | undefined;
  USDT_TRC20_CONTRACT?: string | undefined;
}): ChainConfig['tron'] {
  const fullNodeUrl = values.TRON_FULL_NODE_URL ?? values.TRON_API_URL ?? values.TRON_SOLIDITY_NODE_URL;
  const solidityNodeUrl = values.TRON_SOLIDITY_NODE_URL ?? values.TRON_API_URL ?? values.TRON_FULL_NODE_URL;
  if (fullNodeUrl === undefined || solidityNodeUrl === undefined) return undefined;
  return {
    fullNodeUrl: fullNodeUrl.replace(/\/$/, ''),
    solidityNodeUrl: solidityNodeUrl.replace(/\/$/, ''),
    apiKey: values.TRON_API_KEY,
    usdtContract: values.USDT_TRC20_CONTRACT ?? DEFAULT_USDT_TRC20_CONTRACT,
  };
}

/**
 * The variables a chosen provider needs, every one present, or a refusal with a line per missing one that says where
 * to find it. The payout, SMS and KYC providers are all refused this one way.
 */
function neededBy<Name extends string>(
  choice: string,
  values: Partial<Record<Name, string | undefined>>,
  names: readonly Name[],
  where: string,
): Record<Name, string> {
  const present: Partial<Record<Name, string>> = {};
  const missing: string[] = [];
  for (const name of names) {
    const value = values[name];
    if (value === undefined) missing.push(`Invalid configuration: ${choice} needs ${name} (${where})`);
    else present[name] = value;
  }
  if (missing.length > 0) throw new ConfigurationError(missing);
  return present as Record<Name, string>;
}

type PayoutVariables = Partial<
  Record<
    | 'PAYOUT_PROVIDER'
    | 'RAZORPAYX_API_URL'
    | 'PAYOUT_POLL_SECONDS'
    | 'PAYOUT_STUCK_MINUTES'
    | 'RAZORPAYX_KEY_ID'
    | 'RAZORPAYX_KEY_SECRET'
    | 'RAZORPAYX_ACCOUNT_NUMBER'
    | 'RAZORPAYX_WEBHOOK_SECRET'
    | 'CASHFREE_PAYOUTS_API_URL'
    | 'CASHFREE_PAYOUTS_CLIENT_ID'
    | 'CASHFREE_PAYOUTS_CLIENT_SECRET',
    string | undefined
  >
>;

/** The payout provider with all it needs; without PAYOUT_PROVIDER the RAZORPAYX_* and CASHFREE_PAYOUTS_* variables are ignored. */
function payoutProviderConfig(values: PayoutVariables): PayoutProviderConfig | undefined {
  if (values.PAYOUT_PROVIDER === undefined) return undefined;
  const pace = {
    pollSeconds: values.PAYOUT_POLL_SECONDS === undefined ? 5 : Number(values.PAYOUT_POLL_SECONDS),
    stuckMinutes: values.PAYOUT_STUCK_MINUTES === undefined ? 30 : Number(values.PAYOUT_STUCK_MINUTES),
  };
  if (values.PAYOUT_PROVIDER === 'cashfree') {
    const cashfree = neededBy(
      'PAYOUT_PROVIDER=cashfree',
      values,
      ['CASHFREE_PAYOUTS_CLIENT_ID', 'CASHFREE_PAYOUTS_CLIENT_SECRET'],
      'from the Cashfree Payouts dashboard: Developers, API keys; see docs/decisions/062',
    );
    return {
      provider: 'cashfree',
      apiUrl: (values.CASHFREE_PAYOUTS_API_URL ?? DEFAULT_CASHFREE_PAYOUTS_API_URL).replace(/\/$/, ''),
      clientId: cashfree.CASHFREE_PAYOUTS_CLIENT_ID,
      clientSecret: cashfree.CASHFREE_PAYOUTS_CLIENT_SECRET,
      ...pace,
    };
  }
  const needed = neededBy(
    'PAYOUT_PROVIDER=razorpayx',
    values,
    ['RAZORPAYX_KEY_ID', 'RAZORPAYX_KEY_SECRET', 'RAZORPAYX_ACCOUNT_NUMBER', 'RAZORPAYX_WEBHOOK_SECRET'],
    "from the RazorpayX Dashboard: API keys, the business account number, and the webhook's secret",
  );
  return {
    provider: 'razorpayx',
    apiUrl: (values.RAZORPAYX_API_URL ?? DEFAULT_RAZORPAYX_API_URL).replace(/\/$/, ''),
    keyId: needed.RAZORPAYX_KEY_ID,
    keySecret: needed.RAZORPAYX_KEY_SECRET,
    accountNumber: needed.RAZORPAYX_ACCOUNT_NUMBER,
    webhookSecret: needed.RAZORPAYX_WEBHOOK_SECRET,
    ...pace,
  };
}

type SmsVariables = Partial<
  Record<'SMS_PROVIDER' | 'SMS_API_URL' | 'SMS_AUTH_KEY' | 'SMS_TEMPLATE_ID' | 'SMS_ACCOUNT_SID' | 'SMS_AUTH_TOKEN' | 'SMS_FROM', string | undefined>
>;

/** The SMS provider and its credentials; unset, text messages stay in the outbox. */
function smsConfig(values: SmsVariables): SmsConfig {
  const apiUrl = (fallback: string) => (values.SMS_API_URL ?? fallback).replace(/\/$/, '');
  if (values.SMS_PROVIDER === 'msg91') {
    const needed = neededBy('SMS_PROVIDER=msg91', values, ['SMS_AUTH_KEY', 'SMS_TEMPLATE_ID'], 'see docs/decisions/041');
    return { provider: 'msg91', apiUrl: apiUrl(MSG91_DEFAULT_API_URL), authKey: needed.SMS_AUTH_KEY, templateId: needed.SMS_TEMPLATE_ID };
  }
  if (values.SMS_PROVIDER === 'twilio') {
    const needed = neededBy('SMS_PROVIDER=twilio', values, ['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'], 'see docs/decisions/041');
    return {
      provider: 'twilio',
      apiUrl: apiUrl(TWILIO_DEFAULT_API_URL),
      accountSid: needed.SMS_ACCOUNT_SID,
      authToken: needed.SMS_AUTH_TOKEN,
      from: needed.SMS_FROM,
    };
  }
  return { provider: 'outbox' };
}

type KycVariables = Partial<Record<'KYC_PROVIDER' | 'KYC_API_URL' | 'KYC_CLIENT_ID' | 'KYC_CLIENT_SECRET', string | undefined>>;

/** The PAN verification provider; unset, an admin verifies each PAN (decision 042). */
function kycConfig(values: KycVariables): AppConfig['kyc'] {
  if (values.KYC_PROVIDER !== 'cashfree') return undefined;
  const needed = neededBy(
    'KYC_PROVIDER=cashfree',
    values,
    ['KYC_CLIENT_ID', 'KYC_CLIENT_SECRET'],
    "from the Cashfree Merchant Dashboard: the Verification Suite's API keys",
  );
  return {
    provider: 'cashfree',
    apiUrl: (values.KYC_API_URL ?? DEFAULT_CASHFREE_API_URL).replace(/\/$/, ''),
    clientId: needed.KYC_CLIENT_ID,
    clientSecret: needed.KYC_CLIENT_SECRET,
  };
}

/** Reads and validates the configuration; every bad variable is reported on its own line. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      const value = environment[name];
      const shown = UNSHOWN_VARIABLES.includes(name) ? '' : ` (got "${value ?? ''}")`;
      return `Invalid configuration: ${name} ${issue.message}${shown}`;
    });
    throw new ConfigurationError(problems);
  }
  const values = parsed.data;
  if ((values.ADMIN_EMAIL === undefined) !== (values.ADMIN_PASSWORD === undefined)) {
    throw new ConfigurationError(['Invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD must be set together']);
  }
  if (values.DEPOSIT_XPUB_ERC20 !== undefined && values.DEPOSIT_XPUB_ERC20 === values.DEPOSIT_XPUB_TRC20) {
    throw new ConfigurationError([
      "Invalid configuration: DEPOSIT_XPUB_TRC20 is the same key as DEPOSIT_XPUB_ERC20; TRON's account is m/44'/195'/0', Ethereum's m/44'/60'/0'",
    ]);
  }
  if (values.KYC_LIVENESS_CHALLENGE !== undefined && environment.NODE_ENV === 'production') {
    // A fixed challenge lets a recorded clip pass the live selfie; it exists for tests whose fake camera plays one.
    throw new ConfigurationError([
      'Invalid configuration: KYC_LIVENESS_CHALLENGE must be unset when NODE_ENV=production (it fixes the live selfie’s steps for tests only; see docs/decisions/052)',
    ]);
  }
  const port = values.PORT === undefined ? 3000 : Number(values.PORT);
  return {
    port,
    host: values.HOST ?? '127.0.0.1',
    dataDirectory: path.resolve(values.DATA_DIR ?? './data'),
    databaseUrl: values.DATABASE_URL,
    appOrigin: (values.APP_ORIGIN ?? `http://localhost:${port}`).replace(/\/$/, ''),
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM ?? DEFAULT_MAIL_FROM,
    supportEmail: values.SUPPORT_EMAIL ?? (values.MAIL_FROM ?? DEFAULT_MAIL_FROM).replace(/^.*<(.+)>$/, '$1'),
    adminEmail: values.ADMIN_EMAIL,
    adminPassword: values.ADMIN_PASSWORD,
    logLevel: values.LOG_LEVEL ?? 'info',
    rateLimitScale: values.RATE_LIMIT_SCALE === undefined ? 1 : Number(values.RATE_LIMIT_SCALE),
    securityCoolingOffHours: values.SECURITY_COOLING_OFF_HOURS === undefined ? 24 : Number(values.SECURITY_COOLING_OFF_HOURS),
    apiDocs: values.API_DOCS ?? 'off',
    chain: {
      ethereum:
        values.ETHEREUM_RPC_URL === undefined
          ? undefined
          : {
              rpcUrl: values.ETHEREUM_RPC_URL,
              usdtContract: values.USDT_ERC20_CONTRACT ?? DEFAULT_USDT_ERC20_CONTRACT,
              ...(values.CHAIN_DEV_CONFIRMATIONS === undefined
                ? { confirmations: values.ERC20_CONFIRMATIONS === undefined ? undefined : Number(values.ERC20_CONFIRMATIONS) }
                : { confirmations: Number(values.CHAIN_DEV_CONFIRMATIONS), devConfirmations: true as const }),
            },
      tron: tronConfig(values),
      pollSeconds: values.CHAIN_POLL_SECONDS === undefined ? 15 : Number(values.CHAIN_POLL_SECONDS),
    },
    trustProxy: values.TRUST_PROXY === undefined ? undefined : listOf(values.TRUST_PROXY),
    metricsToken: values.METRICS_TOKEN,
    metricsPort: values.METRICS_PORT === undefined ? undefined : Number(values.METRICS_PORT),
    depositExtendedPublicKeys: { ERC20: values.DEPOSIT_XPUB_ERC20, TRC20: values.DEPOSIT_XPUB_TRC20 },
    payoutProvider: payoutProviderConfig(values),
    sms: smsConfig(values),
    operatorName: values.OPERATOR_NAME ?? DEFAULT_OPERATOR_NAME,
    ifscApiUrl: values.IFSC_API_URL === 'off' ? undefined : (values.IFSC_API_URL ?? DEFAULT_IFSC_API_URL).replace(/\/$/, ''),
    kyc: kycConfig(values),
    kycEncryptionKey: values.KYC_ENCRYPTION_KEY,
    kycLivenessChallenge: values.KYC_LIVENESS_CHALLENGE === undefined ? undefined : (values.KYC_LIVENESS_CHALLENGE.split(',') as LivenessStep[]),
  };
}
