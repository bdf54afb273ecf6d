import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { composeMiddleware } from '../src/http/middleware/compose-middleware.js';

const req = {} as Request;
const res = {} as Response;
const run = (handler: RequestHandler) => {
  const calls: unknown[] = [];
  handler(req, res, ((error?: unknown) => calls.push(error ?? 'next')) as NextFunction);
  return calls;
};

describe('composeMiddleware', () => {
  it('runs the handlers in order, then the outer next once', () => {
    const seen: string[] = [];
    const noting =
      (name: string): RequestHandler =>
      (_q, _s, next) => {
        seen.push(name);
        next();
      };
    const handler = composeMiddleware([noting('a'), undefined, noting('b')]);
    expect(run(handler)).toEqual(['next']);
    expect(seen).toEqual(['a', 'b']);
  });

  it('passes an error given to next, or thrown, to the outer next and skips the rest', () => {
    const boom = new Error('boom');
    let reached = false;
    const rest: RequestHandler = (_q, _s, next) => {
      reached = true;
      next();
    };
    expect(run(composeMiddleware([(_q, _s, next) => next(boom), rest]))).toEqual([boom]);
    expect(
      run(
        composeMiddleware([
          () => {
            throw boom;
          },
          rest,
        ]),
      ),
    ).toEqual([boom]);
    expect(reached).toBe(false);
  });

  it('stops where a handler answers without calling next', () => {
    let reached = false;
    const handler = composeMiddleware([
      () => {},
      (_q, _s, next) => {
        reached = true;
        next();
      },
    ]);
    expect(run(handler)).toEqual([]);
    expect(reached).toBe(false);
  });
});
