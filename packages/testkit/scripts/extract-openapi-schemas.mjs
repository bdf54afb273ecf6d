import { readFileSync, writeFileSync } from 'node:fs';
// Usage: node extract-openapi-schemas.mjs <openai-openapi.yaml> <out.json> <SchemaName>...
import { parse } from 'yaml';
const spec = parse(readFileSync(process.argv[2], 'utf8'));
const roots = process.argv.slice(4);
const all = spec.components.schemas;
const keep = {};
const visit = (v) => {
  if (Array.isArray(v)) return v.forEach(visit);
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') {
        const name = x.split('/').pop();
        if (!keep[name]) {
          keep[name] = all[name];
          visit(all[name]);
        }
      } else visit(x);
    }
  }
};
for (const r of roots) {
  keep[r] = all[r];
  visit(all[r]);
}
const strip = (v) => {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !['description', 'example', 'examples', 'x-oaiMeta', 'x-oaiExpandable', 'title'].includes(k))
        .map(([k, x]) => [k, strip(x)]),
    );
  return v;
};
writeFileSync(
  process.argv[3],
  JSON.stringify({
    openapi: spec.openapi,
    info: { title: spec.info.title, version: spec.info.version },
    components: { schemas: strip(keep) },
  }),
);
console.log(Object.keys(keep).length);
