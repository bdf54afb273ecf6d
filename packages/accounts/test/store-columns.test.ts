import { describe, expect, it } from 'vitest';
import { columnValues, GROUP_COLUMNS, jsonText, KEY_COLUMNS, KEY_SECRET_COLUMNS, LIMIT_COLUMNS } from '../src/index.js';

describe('store columns', () => {
  it('gives every column of a record, absent fields and optional limits as null, lists and objects untouched', () => {
    const team = {
      id: 'team_1',
      name: 'research',
      models: ['gpt-4o*'],
      rpm_limit: 10,
      tpm_limit: null,
      budget_usd: 5,
      budget_period: 'month',
      metadata: { cost_center: 'r1' },
      created_at: '2026-11-27T00:00:00.000Z',
      not_a_column: 'dropped',
    };
    const values = columnValues(team, [...GROUP_COLUMNS, 'organization_id']);
    expect(Object.keys(values)).toEqual([...GROUP_COLUMNS, 'organization_id']);
    expect(values).toMatchObject({ models: ['gpt-4o*'], metadata: { cost_center: 'r1' }, tpm_limit: null });
    for (const column of [...LIMIT_COLUMNS, 'organization_id']) expect(values[column]).toBeNull();
  });

  it('lists the secret columns among the key columns, and JSON text only for values present', () => {
    expect(KEY_SECRET_COLUMNS.every((column) => (KEY_COLUMNS as readonly string[]).includes(column))).toBe(true);
    expect(new Set(KEY_COLUMNS).size).toBe(KEY_COLUMNS.length);
    expect(jsonText({ a: [1, null] })).toBe('{"a":[1,null]}');
    expect(jsonText(null)).toBeNull();
    expect(jsonText(undefined)).toBeNull();
  });
});
