import { describe, expect, it } from 'vitest';
import { asyncContextFramesEnabled } from '../src/http/request-scope.js';

describe('asyncContextFramesEnabled (whether requests enter the request scope)', () => {
  it('is off on plain Node 22 and on with --experimental-async-context-frame, as a flag or in NODE_OPTIONS', () => {
    expect(asyncContextFramesEnabled('22.23.3', [])).toBe(false);
    expect(asyncContextFramesEnabled('22.23.3', ['--experimental-async-context-frame'])).toBe(true);
    expect(
      asyncContextFramesEnabled('22.23.3', [], '--max-old-space-size=512 --experimental-async-context-frame'),
    ).toBe(true);
  });

  it('is on by default from Node 24, unless turned off', () => {
    expect(asyncContextFramesEnabled('24.1.0', [])).toBe(true);
    expect(asyncContextFramesEnabled('25.0.0', ['--no-async-context-frame'])).toBe(false);
  });
});
