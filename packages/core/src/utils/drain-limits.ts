/**
 * The most of an upstream body read and discarded after its consumer stopped early (an event stream's end marker such
 * as `data: [DONE]` was seen) so that its connection can be reused: 64 KiB, within 1,000 ms. An upstream that sends
 * more after it, or takes longer to end, has its connection closed instead of being read for ever (issue #38).
 */
export const DRAIN_LIMITS = { maxBytes: 64 * 1024, maxMs: 1_000 } as const;
