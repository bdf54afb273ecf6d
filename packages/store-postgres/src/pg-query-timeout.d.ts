import 'pg';

/**
 * node-postgres reads `query_timeout` (ms) from a query's config object as well as from the client's (`Client#query`
 * in pg 8: `config.query_timeout || connectionParameters.query_timeout`), but `@types/pg` declares it only on the
 * client's. This adds it to `QueryConfig`.
 * @see https://github.com/brianc/node-postgres/blob/master/packages/pg/lib/client.js
 */
declare module 'pg' {
  interface QueryConfig {
    /** The query fails with "Query read timeout" when no answer arrived within this many ms. */
    query_timeout?: number;
  }
}
