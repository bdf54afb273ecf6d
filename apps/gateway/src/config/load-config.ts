import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { ConfigError } from './config-error.js';
import { type GatewayConfig, gatewayConfigSchema } from './config-schema.js';
import { checkModelNames } from './check-model-names.js';
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
  const problems = checkModelNames(result.data);
  if (problems.length > 0)
    throw new ConfigError(`${source}: invalid config:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return result.data;
}

/** Reads and validates the config file at `path`. Throws ConfigError when it is missing or invalid. */
export async function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      { cause: error },
    );
  }
  return parseConfig(text, path, env);
}
