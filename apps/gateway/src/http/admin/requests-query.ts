import type { UsageQuery } from '@switchyard/accounts';
import { invalidRequestError } from '@switchyard/core';
import type { Request } from 'express';

/** Rows per page of `GET /admin/requests` when `limit` is absent, and the most a page may hold. */
export const REQUESTS_DEFAULT_LIMIT = 50;
export const REQUESTS_MAX_LIMIT = 1000;

/** Encodes the paging cursor of `GET /admin/requests` (`next_before`): opaque base64url text. */
export function encodeRequestsCursor(row: { created_at: number; request_id: string }): string {
  return Buffer.from(JSON.stringify([row.created_at, row.request_id])).toString('base64url');
}

function decodeCursor(text: string): UsageQuery['before'] {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && Number.isFinite(value[0]) && typeof value[1] === 'string')
      return { created_at: value[0], request_id: value[1] };
  } catch {}
  return undefined;
}

function parseBefore(value: unknown): UsageQuery['before'] {
  if (value === undefined || value === '') return undefined;
  const text = String(value);
  if (/^\d+$/.test(text)) return { created_at: Number(text) };
  const iso = /^\d{4}-\d\d-\d\d/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isNaN(iso)) return { created_at: iso };
  const cursor = decodeCursor(text);
  if (cursor) return cursor;
  throw invalidRequestError(
    "Invalid 'before': expected an ISO-8601 time, unix milliseconds or a 'next_before' cursor.",
    'before',
  );
}

/** `status=`: one code (`429`), a class (`2xx`, `4xx`, `5xx`), `ok` (below 400) or `error` (400 and above). */
function parseStatus(value: unknown): Pick<UsageQuery, 'status_min' | 'status_max'> {
  if (value === undefined || value === '') return {};
  const text = String(value).toLowerCase();
  if (/^[1-5]\d\d$/.test(text)) return { status_min: Number(text), status_max: Number(text) };
  if (/^[1-5]xx$/.test(text)) return { status_min: Number(text[0]) * 100, status_max: Number(text[0]) * 100 + 99 };
  if (text === 'ok') return { status_max: 399 };
  if (text === 'error') return { status_min: 400 };
  throw invalidRequestError(
    "Invalid 'status': expected a status code such as 429, a class such as 5xx, 'ok' or 'error'.",
    'status',
  );
}

/**
 * Reads `GET /admin/requests?key=&team=&model=&status=&before=&limit=` into a {@link UsageQuery} asking for one row more
 * than `limit` (to tell whether there is a next page). Throws 400 naming a bad parameter.
 */
export function parseRequestsQuery(req: Request): { query: UsageQuery; limit: number } {
  const q = req.query as Record<string, unknown>;
  let limit = REQUESTS_DEFAULT_LIMIT;
  if (q.limit !== undefined && q.limit !== '') {
    limit = Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > REQUESTS_MAX_LIMIT) {
      throw invalidRequestError(`Invalid 'limit': expected an integer from 1 to ${REQUESTS_MAX_LIMIT}.`, 'limit');
    }
  }
  const query: UsageQuery = { limit: limit + 1, before: parseBefore(q.before), ...parseStatus(q.status) };
  if (typeof q.key === 'string' && q.key) query.key_id = q.key;
  if (typeof q.model === 'string' && q.model) query.model = q.model;
  if (typeof q.team === 'string' && q.team) query.team_id = q.team;
  return { query, limit };
}
