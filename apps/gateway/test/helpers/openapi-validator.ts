import { testkitFixtures } from '@switchyard/testkit';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

const spec = testkitFixtures().json<Record<string, unknown>>('openai/openapi/responses-schemas.json');
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(spec, 'openai');

/**
 * Asserts that `body` validates against the OpenAI OpenAPI component schema `name` (e.g. `Response`,
 * `ResponseStreamEvent`, `ResponseItemList`), extracted in testkit's `fixtures/openai/openapi/`.
 */
export function expectOpenApiSchema(name: string, body: unknown): void {
  const validate = ajv.getSchema(`openai#/components/schemas/${name}`);
  if (!validate) throw new Error(`no OpenAPI schema '${name}'`);
  const ok = validate(body);
  expect(ok ? [] : validate.errors?.slice(0, 5), `${name}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
}

type SchemaMap = Record<
  string,
  { anyOf?: { $ref: string }[]; oneOf?: { $ref: string }[]; properties?: { type?: { enum?: string[] } } }
>;
const schemas = (spec as { components: { schemas: SchemaMap } }).components.schemas;
const eventSchemaByType = new Map<string, string>();
for (const ref of schemas.ResponseStreamEvent?.anyOf ?? schemas.ResponseStreamEvent?.oneOf ?? []) {
  const name = ref.$ref.split('/').pop()!;
  const type = schemas[name]?.properties?.type?.enum?.[0];
  if (type) eventSchemaByType.set(type, name);
}

/** Asserts that a Responses stream event validates against the OpenAPI schema of its `type` (one of ResponseStreamEvent's). */
export function expectOpenApiStreamEvent(event: { type: string }): void {
  const name = eventSchemaByType.get(event.type);
  expect(name, `no ResponseStreamEvent schema for '${event.type}'`).toBeDefined();
  expectOpenApiSchema(name!, event);
}
