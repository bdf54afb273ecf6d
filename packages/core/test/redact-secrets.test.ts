import { describe, expect, it } from 'vitest';
import { GatewayError, redactGatewayError, redactSecrets, upstreamErrorCode } from '../src/index.js';

const KEY = 'sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4';

describe('redactSecrets', () => {
  it('removes the whole key, an echo minus its last characters, and a piece from its middle', () => {
    expect(redactSecrets(`key ${KEY} bad`, [KEY])).toBe('key [REDACTED] bad');
    expect(redactSecrets(`key ${KEY.slice(0, -1)}.`, [KEY])).toBe('key [REDACTED].');
    expect(redactSecrets(`...${KEY.slice(5, 25)}...`, [KEY])).toBe('...[REDACTED]...');
  });

  it('leaves ordinary text alone, including short common pieces of the key', () => {
    expect(redactSecrets('The upstream provider failed: sk-proj keys only.', [KEY])).toBe(
      'The upstream provider failed: sk-proj keys only.',
    );
  });

  it('redacts every field of a GatewayError', () => {
    const error = new GatewayError({
      status: 400,
      type: KEY,
      param: `p-${KEY}`,
      code: upstreamErrorCode(KEY.slice(0, -2)),
      message: 'm',
      headers: { 'x-a': KEY },
    });
    const clean = JSON.stringify(redactGatewayError(error, [KEY]).toJSON());
    expect(clean).not.toContain(KEY.slice(0, 12));
    expect(redactGatewayError(error, [KEY]).headers['x-a']).toBe('[REDACTED]');
  });

  it("leaves the gateway's own words alone when a key shares 8 characters with them (issue #38)", () => {
    const key = 'az-upstream-key';
    expect(redactSecrets('upstream_auth_failed: the upstream refused the key', [key])).toBe(
      'upstream_auth_failed: the upstream refused the key',
    );
    expect(redactSecrets(`bad key ${key}`, [key])).toBe('bad key [REDACTED]');
    // A real key's pieces (mixed case and digits) are still redacted, even next to a word it shares.
    const real = 'az-upstream-Xk39fQ2mLp7Rt';
    expect(redactSecrets(`key "${real.slice(0, 16)}..." is invalid; upstream_auth_failed`, [real])).toBe(
      'key "[REDACTED]..." is invalid; upstream_auth_failed',
    );
  });
});
