import type { Gateway } from '@switchyard/core';
import type { GatewayTracing } from './gateway-tracing.js';

/** The `telemetry` block of the config. */
export interface TelemetrySettings {
  otlp_endpoint?: string;
  service_name: string;
  capture_content: boolean;
}

/**
 * Starts OpenTelemetry tracing when an OTLP endpoint is configured (`telemetry.otlp_endpoint`, else the standard
 * `OTEL_EXPORTER_OTLP_ENDPOINT`); resolves undefined otherwise, without loading the OpenTelemetry SDK at all (it is
 * imported dynamically here, and only here).
 * @see https://opentelemetry.io/docs/specs/otel/protocol/exporter/
 */
export async function startTracing(
  gateway: Gateway,
  settings: TelemetrySettings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<GatewayTracing | undefined> {
  const endpoint = settings.otlp_endpoint ?? (env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined);
  if (!endpoint) return undefined;
  const { GatewayTracing } = await import('./gateway-tracing.js');
  const tracing = new GatewayTracing(gateway, {
    endpoint,
    serviceName: env.OTEL_SERVICE_NAME || settings.service_name,
    captureContent: settings.capture_content,
  });
  gateway.observe(tracing.observer);
  return tracing;
}
