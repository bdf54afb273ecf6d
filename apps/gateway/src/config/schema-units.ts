import { z } from 'zod';

/**
 * Config fields measured in milliseconds: a whole number above 0 (`timeout_ms: 500`). Shared by every config schema
 * so that a duration is read the same way everywhere.
 */
export const ms = z.number().int().positive();

/** Config fields measured in bytes: a whole number above 0 (`max_bytes: 1048576`). */
export const bytes = z.number().int().positive();
