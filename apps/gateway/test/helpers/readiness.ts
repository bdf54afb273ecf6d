import { expect } from 'vitest';

/**
 * Waits until `GET <origin>/readyz` answers 200 (the gateway's stores, Redis among them, are reachable again), polling
 * every `intervalMs` for at most `timeoutMs` (ms). Fails the test with vitest's poll error if it never does.
 *
 * @param origin the gateway's origin without `/v1`, e.g. `http://127.0.0.1:4000`.
 */
export async function waitUntilReady(origin: string, timeoutMs = 10_000, intervalMs = 100): Promise<void> {
  await expect
    .poll(async () => (await fetch(`${origin}/readyz`)).status, { timeout: timeoutMs, interval: intervalMs })
    .toBe(200);
}
