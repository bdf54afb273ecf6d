import { type GatewayCallOptions, invalidRequestError } from '@switchyard/core';
import type { Request, Response } from 'express';
import { locals } from './request-locals.js';

function intHeader(req: Request, name: string, min: number): number | undefined {
  const raw = req.get(name);
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw invalidRequestError(`Invalid header '${name}': expected an integer >= ${min}.`, name, 'invalid_header');
  return value;
}

/**
 * The gateway call options of one HTTP request: abort signal, request id and caller (from authentication), plus the per-request overrides
 * `x-switchyard-max-retries` (retries per target) and `x-switchyard-timeout-ms` (total deadline, ms), which the
 * gateway clamps to its configured ceilings. Throws 400 naming the header when one is not a valid integer.
 */
export function callOptions(req: Request, res: Response): GatewayCallOptions {
  const { signal, requestId, caller } = locals(res);
  return { signal, requestId, caller, maxRetries: intHeader(req, 'x-switchyard-max-retries', 0), timeoutMs: intHeader(req, 'x-switchyard-timeout-ms', 1) };
}
