import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createPublicClient, createWalletClient, http, parseAbi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { AdminApi } from './support/admin-api.ts';
import { E2E_CHAIN_INFO_FILE, E2E_ERC20_CONFIRMATIONS } from './support/constants.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';

/*
 * A customer proves their Ethereum wallet by signing (the test holds the key, as
 * the wallet app would), sends USDT on the local chain the e2e server verifies
 * against, submits the hash, and watches "Confirming" turn into "Credited"
 * without reloading the page.
 */

const TOKEN_ABI = parseAbi(['function mint(address to, uint256 value)', 'function transfer(address to, uint256 value) returns (bool)']);
const LOCAL_CHAIN = {
  id: 31337,
  name: 'Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] as string[] } },
};

test('a verified wallet’s deposit is confirmed on chain and credited live', async ({ page }) => {
  const { rpcUrl, usdtContract } = JSON.parse(fs.readFileSync(E2E_CHAIN_INFO_FILE, 'utf8')) as { rpcUrl: string; usdtContract: Hex };
  const rpc = async (method: string, params: unknown[]) => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return ((await response.json()) as { result: unknown }).result;
  };
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ transport });
  const customerKey = privateKeyToAccount(generatePrivateKey());
  const operator = privateKeyToAccount(generatePrivateKey());
  const customerWallet = createWalletClient({ account: customerKey, transport, chain: LOCAL_CHAIN });
  await rpc('hardhat_setBalance', [customerKey.address, '0x56BC75E2D63100000']);
  await publicClient.waitForTransactionReceipt({
    hash: await customerWallet.writeContract({ address: usdtContract, abi: TOKEN_ABI, functionName: 'mint', args: [customerKey.address, 100_000_000n] }),
  });

  const admin = await AdminApi.open();
  await admin.ensureTrc20DepositAddress();
  await admin.updateSettings({ erc20Address: operator.address });
  await admin.dispose();

  const customer = newCustomer({ name: 'Meera Shah' });
  await signUpThroughForm(page, customer);

  // My wallets: ask for the message, sign it with the wallet's key, paste the signature.
  await page.goto('/wallet');
  await page.getByRole('link', { name: 'My wallets' }).click();
  await expect(page).toHaveURL(/\/wallet\/wallets$/);
  await page.getByLabel('Wallet network').selectOption('ERC20');
  await page.getByLabel('Wallet address').fill(customerKey.address);
  await page.getByRole('button', { name: 'Get message to sign' }).click();
  const message = await page.getByLabel('Message to sign').inputValue();
  expect(message).toContain(customer.email);
  await page.getByLabel('Signature').fill(await customerKey.signMessage({ message }));
  await page.getByRole('button', { name: 'Verify wallet' }).click();
  await expect(page.getByText('Wallet verified')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Verified wallets' }).getByText(customerKey.address)).toBeVisible();

  // Send 25 USDT on chain, then submit its hash.
  const hash = await customerWallet.writeContract({ address: usdtContract, abi: TOKEN_ABI, functionName: 'transfer', args: [operator.address, 25_000_000n] });
  await publicClient.waitForTransactionReceipt({ hash });
  await page.goto('/wallet/deposit');
  await page.getByLabel('Network').selectOption('ERC20');
  await page.getByLabel('Amount (USDT)').fill('25');
  await page.getByLabel('Transaction Hash').fill(hash);
  await page.getByRole('button', { name: 'Submit Deposit' }).click();
  await expect(page.getByRole('heading', { name: 'Deposit Request Submitted' })).toBeVisible();

  const status = page.getByRole('status').filter({ hasText: /Confirming|Credited|Pending/ });
  // Live, or at the latest by the page's 10-second poll when the event came before the stream was open.
  await expect(status).toHaveText(`Confirming (1 of ${E2E_ERC20_CONFIRMATIONS})`, { timeout: 20_000 });
  // One more block makes it final; the page follows without a reload.
  await rpc('hardhat_mine', ['0x1']);
  await expect(status).toHaveText('Credited', { timeout: 20_000 });

  await page.goto('/wallet');
  await expect(page.getByText('25.00 USDT').first()).toBeVisible();
});
