import type { Accounts } from '@switchyard/accounts';
import { authenticationError, GatewayError } from '@switchyard/core';
import type { RequestHandler } from 'express';
import type { GatewayMetrics } from '../../telemetry/gateway-metrics.js';

/**
 * `GET /metrics`: the Prometheus text exposition of {@link GatewayMetrics}. With `accounts` (metrics `auth: master`)
 * it requires `Authorization: Bearer <admin.master_key>`: 401 without a valid key, 403 for another key.
 * @see https://prometheus.io/docs/instrumenting/exposition_formats/
 */
export function metricsRoute(metrics: GatewayMetrics, masterOnly?: Accounts): RequestHandler {
  return async (req, res) => {
    if (masterOnly) {
      const authorization = req.get('authorization');
      if (!authorization) throw authenticationError('The metrics endpoint needs the admin master key.');
      if (!masterOnly.isMaster(authorization)) {
        masterOnly.authenticate(authorization);
        throw new GatewayError({
          status: 403,
          type: 'invalid_request_error',
          code: 'forbidden',
          message: 'The metrics endpoint needs the master key.',
        });
      }
    }
    const { contentType, body } = await metrics.scrape();
    res.setHeader('content-type', contentType);
    res.send(body);
  };
}
