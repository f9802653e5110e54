import { describe, expect, it } from 'vitest';
import { isValidErc20Address, isValidTronAddress } from '../../src/server/features/settings/addresses.ts';
import {
  KNOWN_ERC20_ADDRESS,
  KNOWN_TRON_ADDRESS,
  randomErc20Address,
  randomTronAddress,
  TEST_ERC20_ADDRESS,
  TEST_TRC20_ADDRESS,
  tronAddressFor,
} from '../fixtures/addresses.ts';

// A fixture address the app itself would refuse makes tests pass or fail for the wrong reason.
describe('test fixture addresses', () => {
  it('are valid under the app’s own TRON and Ethereum checks', () => {
    for (const address of [KNOWN_TRON_ADDRESS, TEST_TRC20_ADDRESS, randomTronAddress(), randomTronAddress()])
      expect(isValidTronAddress(address), address).toBe(true);
    for (const address of [KNOWN_ERC20_ADDRESS, TEST_ERC20_ADDRESS, randomErc20Address(), randomErc20Address()])
      expect(isValidErc20Address(address), address).toBe(true);
  });

  it('derive the fixed TRC20 deposit address from its phrase, so it can be regenerated', () => {
    expect(tronAddressFor('rupeedesk integration test TRC20 deposit address')).toBe(TEST_TRC20_ADDRESS);
  });

  it('are checked by a validator that refuses a bad checksum', () => {
    // The TRC20 address the fixtures held until it was found to fail its checksum; refusing it shows the check above can fail.
    expect(isValidTronAddress('TJYeasTPa6gpEEfYqNWcuJUMUb9qvQJp2u')).toBe(false);
  });
});
