import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { validateRequest } from '../src/index.js';

describe('validation messages for exclusive bounds', () => {
  it('says "more than 0" for a positive number given 0 (was "Expected at least 0")', () => {
    expect(() => validateRequest(z.object({ rpm_limit: z.number().int().positive() }), { rpm_limit: 0 })).toThrow(
      "Invalid 'rpm_limit': value below minimum. Expected more than 0.",
    );
  });

  it('keeps "at least" for inclusive bounds and says "less than" for exclusive maxima', () => {
    expect(() => validateRequest(z.object({ n: z.number().min(1) }), { n: 0 })).toThrow('Expected at least 1.');
    expect(() => validateRequest(z.object({ n: z.number().lt(5) }), { n: 5 })).toThrow('Expected less than 5.');
  });
});
