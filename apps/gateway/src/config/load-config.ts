import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { ConfigError } from './config-error.js';
import { type GatewayConfig, gatewayConfigSchema } from './config-schema.js';
import { formatZodIssues } from './format-zod-issues.js';
import { substituteEnv } from './substitute-env.js';

/**
 * Parses and validates config text (YAML; JSON is YAML too). `${VAR}` is replaced from `env` first.
 * Throws ConfigError naming `source` and each bad path.
 */
export function parseConfig(text: string, source: string, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  let tree: unknown;
  try {
    tree = parse(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid YAML: ${(error as Error).message}`, { cause: error });
  }
  let substituted: unknown;
  try {
    substituted = substituteEnv(tree ?? {}, env);
  } catch (error) {
    throw new ConfigError(`${source}: ${(error as Error).message}`, { cause: error });
  }
  const result = gatewayConfigSchema.safeParse(substituted);
  if (!result.success) throw new ConfigError(`${source}: invalid config:\n${formatZodIssues(result.error)}`);
  const ids = new Set(result.data.models.map((m) => m.id));
  for (const [i, model] of result.data.models.entries()) {
    if (model.provider !== undefined && !(model.provider in result.data.providers)) {
      throw new ConfigError(`${source}: invalid config:\n  models.${i}.provider: '${model.provider}' is not a key of providers.`);
    }
    for (const [j, target] of (model.targets ?? []).entries()) {
      if (!(target.provider in result.data.providers)) {
        throw new ConfigError(`${source}: invalid config:\n  models.${i}.targets.${j}.provider: '${target.provider}' is not a key of providers.`);
      }
    }
    for (const [j, fallback] of model.fallbacks.entries()) {
      if (!ids.has(fallback)) throw new ConfigError(`${source}: invalid config:\n  models.${i}.fallbacks.${j}: '${fallback}' is not a model id.`);
    }
  }
  return result.data;
}

/** Reads and validates the config file at `path`. Throws ConfigError when it is missing or invalid. */
export async function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  return parseConfig(text, path, env);
}
