import type { Admission } from './admission.js';
import type { LimitSettlement } from './limiter.js';
import type { UsageRow } from './usage-row.js';
import type { VirtualKey } from './virtual-key.js';

/**
 * What a finished call of `key` gives back to the limiter: for the key and each scope it was admitted in, the tokens
 * reserved against those used (prompt + completion of `row`) and the USD reserved against its cost (`row.cost_usd`).
 */
export function limitSettlement(
  key: VirtualKey,
  admission: Admission,
  row: Pick<UsageRow, 'prompt_tokens' | 'completion_tokens' | 'cost_usd'>,
): LimitSettlement {
  const used = row.prompt_tokens + row.completion_tokens;
  return {
    keyId: key.id,
    local: admission.local,
    tpm: key.tpm_limit,
    tokensReserved: admission.reservedTokens,
    tokensUsed: key.tpm_limit ? used : 0,
    budget: admission.budgetWindow
      ? { window: admission.budgetWindow, reservedUsd: admission.reservedUsd, costUsd: row.cost_usd }
      : null,
    ...(admission.scopes && {
      scopes: admission.scopes.map((s) => ({
        id: s.id,
        tpm: s.tpm,
        tokensReserved: s.reservedTokens,
        tokensUsed: s.tpm ? used : 0,
        budget: s.budget ? { window: s.budget.window, reservedUsd: s.reservedUsd, costUsd: row.cost_usd } : null,
      })),
    }),
  };
}
