import { Accounts, type AccountStore, type Principal, type UsageRow } from '@switchyard/accounts';
import { expect } from 'vitest';
import { usageRow } from './account-store-samples.js';

/**
 * Spends `costUsd` (default 0.02 USD) with the virtual key `secret` on `accounts` (one admitted and settled `gpt-4o`
 * call), closes `accounts`, and opens `Accounts` again on the store `name` of `factory`; resolves with the reopened
 * accounts and the key's principal there.
 */
export async function spendAndReopen(
  factory: { open(name: string): Promise<AccountStore> },
  name: string,
  accounts: Accounts,
  secret: string,
  costUsd = 0.02,
): Promise<{ reopened: Accounts; principal: Principal }> {
  const principal = await accounts.authenticate(`Bearer ${secret}`);
  const admission = await accounts.admit(principal, 'gpt-4o', 1);
  await accounts.settle(principal, admission, {
    ...usageRow('', 'gpt-4o', Date.now(), costUsd),
    key_id: undefined,
  } as Omit<UsageRow, 'key_id'>);
  await accounts.close();
  const reopened = await Accounts.open({ store: await factory.open(name), staticKeys: [] });
  return { reopened, principal: await reopened.authenticate(`Bearer ${secret}`) };
}

/**
 * What a member key of a `group` (team or organization) allowing `gpt-*` with a budget of 0.01 USD per month, spent,
 * is refused: `claude-3` with 403 `model_not_allowed`, `gpt-4o` with 429 `insufficient_quota` naming the group's budget.
 */
export async function expectSpentGroupRefusals(
  accounts: Accounts,
  principal: Principal,
  group: 'team' | 'organization',
): Promise<void> {
  await expect(accounts.admit(principal, 'claude-3', 1)).rejects.toMatchObject({
    status: 403,
    code: 'model_not_allowed',
  });
  await expect(accounts.admit(principal, 'gpt-4o', 1)).rejects.toMatchObject({
    status: 429,
    code: 'insufficient_quota',
    message: expect.stringContaining(`This ${group}'s budget of 0.01 USD per month is spent`),
  });
}
