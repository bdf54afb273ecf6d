import { MAX_MODEL_ID_LENGTH, MODEL_ID_PATTERN, isModelPattern, modelPattern } from '@switchyard/core';
import type { GatewayConfig } from './config-schema.js';

/**
 * The cross-checks of `models` and `aliases` that one entry's schema cannot make, as `<path>: <problem>` lines (empty
 * when all is well): a model id given twice; a model, target or alias naming a provider that is not configured; a
 * fallback that resolves to nothing; an alias whose name is not a valid model id or is also a model id, that names
 * another alias, or names what is neither a model id, a match of a model pattern nor `<provider>/<upstream id>`.
 */
export function checkModelNames(config: Pick<GatewayConfig, 'models' | 'aliases' | 'providers'>): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const patterns = config.models.filter((m) => isModelPattern(m.id)).map((m) => modelPattern(m.id));
  const resolves = (name: string) => {
    if (ids.has(name) || patterns.some((p) => p.matches(name))) return true;
    const slash = name.indexOf('/');
    return slash > 0 && slash < name.length - 1 && name.slice(0, slash) in config.providers;
  };
  for (const [i, model] of config.models.entries()) {
    if (ids.has(model.id)) problems.push(`models.${i}.id: '${model.id}' is given twice; model ids must be unique.`);
    ids.add(model.id);
    if (model.provider !== undefined && !(model.provider in config.providers))
      problems.push(`models.${i}.provider: '${model.provider}' is not a key of providers.`);
    for (const [j, target] of (model.targets ?? []).entries()) {
      if (!(target.provider in config.providers))
        problems.push(`models.${i}.targets.${j}.provider: '${target.provider}' is not a key of providers.`);
    }
  }
  for (const [i, model] of config.models.entries()) {
    for (const [j, fallback] of model.fallbacks.entries()) {
      if (!(fallback in config.aliases) && !resolves(fallback))
        problems.push(`models.${i}.fallbacks.${j}: '${fallback}' is not a model id.`);
    }
  }
  for (const [name, target] of Object.entries(config.aliases)) {
    if (!MODEL_ID_PATTERN.test(name) || name.length > MAX_MODEL_ID_LENGTH)
      problems.push(
        `aliases.${name}: model ids are printable ASCII characters without spaces, at most ${MAX_MODEL_ID_LENGTH}.`,
      );
    else if (ids.has(name)) problems.push(`aliases.${name}: '${name}' is also a model id; remove one of them.`);
    else if (isModelPattern(name) || isModelPattern(target))
      problems.push(`aliases.${name}: an alias names one model; '*' is not allowed.`);
    else if (target in config.aliases)
      problems.push(`aliases.${name}: '${target}' is an alias; an alias must name a model, not another alias.`);
    else if (!resolves(target))
      problems.push(
        `aliases.${name}: '${target}' is neither a model id, a match of a model pattern nor '<provider>/<model>' of a configured provider.`,
      );
  }
  return problems;
}
