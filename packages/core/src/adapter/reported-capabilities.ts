import type { ModelCapability } from './model-capability.js';

/**
 * What a provider's model list says about one model's capabilities: `known` lists the capabilities the list reports
 * on (present or absent), `supported` those of them the model has. A capability outside `known` is unknown, and an
 * unknown capability is assumed supported (as for a deployment without `capabilities` in config).
 * Filled by adapters whose model list says so (see each adapter's `listModels`).
 */
export interface ReportedCapabilities {
  known: readonly ModelCapability[];
  supported: readonly ModelCapability[];
}

/**
 * Builds {@link ReportedCapabilities} from a map of the capabilities a list reports on to whether the model has each;
 * entries whose value is undefined (the list says nothing) are left unknown. Undefined when nothing is known.
 */
export function reportCapabilities(
  flags: Partial<Record<ModelCapability, boolean | undefined>>,
): ReportedCapabilities | undefined {
  const entries = Object.entries(flags).filter(([, value]) => value !== undefined) as [ModelCapability, boolean][];
  if (entries.length === 0) return undefined;
  return {
    known: entries.map(([name]) => name),
    supported: entries.filter(([, value]) => value).map(([name]) => name),
  };
}

/** True unless `reported` says the model lacks `capability`. */
export function reportedCan(reported: ReportedCapabilities | undefined, capability: ModelCapability): boolean {
  if (!reported?.known.includes(capability)) return true;
  return reported.supported.includes(capability);
}
