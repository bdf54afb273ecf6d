import { describe, expect, it } from 'vitest';
import { KeyRing } from '../src/index.js';

describe('KeyRing', () => {
  const ring = new KeyRing(['sk-gateway-one-1234567', 'sk-gateway-two-1234567']);

  it('accepts any issued key as a Bearer token', () => {
    expect(() => ring.authenticate('Bearer sk-gateway-two-1234567')).not.toThrow();
    expect(() => ring.authenticate('bearer sk-gateway-one-1234567')).not.toThrow();
  });

  it.each([undefined, '', 'sk-gateway-one-1234567', 'Bearer', 'Bearer sk-gateway-one-123456', 'Basic abc'])(
    'rejects %j with 401',
    (header) => {
      try {
        ring.authenticate(header);
        expect.unreachable();
      } catch (error) {
        expect(error).toMatchObject({ status: 401, code: 'invalid_api_key' });
        expect((error as Error).message).not.toContain('sk-gateway');
      }
    },
  );
});
