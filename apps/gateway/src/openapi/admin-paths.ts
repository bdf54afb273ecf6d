import { createKeyInputSchema, rotateKeyInputSchema, updateKeyInputSchema } from '@switchyard/accounts';
import { chatCompletionRequestSchema, chatCompletionSchema } from '@switchyard/core';
import {
  auditEntrySchema,
  configuredModelSchema,
  createdKeySchema,
  deploymentHealthSchema,
  listOf,
  usageRowSchema,
  usageTotalsSchema,
  virtualKeyViewSchema,
} from './admin-schemas.js';
import { adminBatchSchema } from './batch-schemas.js';
import type { DocumentParts, JsonObject } from './document-parts.js';
import { teamAndOrganizationPaths } from './group-paths.js';

/**
 * The OpenAPI path items of the admin API under `/admin` (keys, teams, organisations, audit, usage, requests, models, health, the
 * console playground), all under the master key.
 */
export function adminPaths({
  ref,
  json,
  adminErrors,
  admin,
  timeRange,
  idParam,
}: DocumentParts): Record<string, JsonObject> {
  return {
    '/admin/keys': {
      post: {
        summary: 'Issue a virtual key (the secret is shown once)',
        security: admin,
        requestBody: { required: true, ...json(ref('CreateKeyInput', createKeyInputSchema, 'input')) },
        responses: {
          '201': { description: 'Created', ...json(ref('CreatedKey', createdKeySchema, 'output')) },
          ...adminErrors,
        },
      },
      get: {
        summary: 'Every virtual key',
        security: admin,
        responses: {
          '200': { description: 'OK', ...json(ref('VirtualKeyList', listOf(virtualKeyViewSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/keys/{id}': {
      get: {
        summary: 'One key',
        security: admin,
        parameters: [idParam],
        responses: {
          '200': { description: 'OK', ...json(ref('VirtualKey', virtualKeyViewSchema, 'output')) },
          ...adminErrors,
        },
      },
      patch: {
        summary: "Change a key's fields and limits",
        security: admin,
        parameters: [idParam],
        requestBody: { required: true, ...json(ref('UpdateKeyInput', updateKeyInputSchema, 'input')) },
        responses: {
          '200': { description: 'OK', ...json(ref('VirtualKey', virtualKeyViewSchema, 'output')) },
          ...adminErrors,
        },
      },
      delete: {
        summary: 'Revoke a key',
        security: admin,
        parameters: [idParam],
        responses: {
          '200': { description: 'Revoked', ...json(ref('VirtualKey', virtualKeyViewSchema, 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/keys/{id}/rotate': {
      post: {
        summary: 'Issue a new secret for a key; the old one stays valid for grace_seconds (default 86,400)',
        security: admin,
        parameters: [idParam],
        requestBody: { required: false, ...json(ref('RotateKeyInput', rotateKeyInputSchema, 'input')) },
        responses: {
          '200': { description: 'Rotated', ...json(ref('CreatedKey', createdKeySchema, 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/audit': {
      get: {
        summary: 'The audit log: admin changes and sign-ins, newest first',
        security: admin,
        parameters: [
          ...timeRange,
          { name: 'actor', in: 'query', schema: { type: 'string' } },
          { name: 'target', in: 'query', schema: { type: 'string' } },
          { name: 'action', in: 'query', schema: { type: 'string' } },
          { name: 'before', in: 'query', schema: { type: 'string' }, description: 'a next_before cursor' },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
        ],
        responses: {
          '200': { description: 'OK', ...json(ref('AuditEntryList', listOf(auditEntrySchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    ...teamAndOrganizationPaths({ ref, json, adminErrors, admin }),
    '/admin/usage/export': {
      get: {
        summary: 'Ledger rows of a period, streamed as CSV or JSON lines (newest first)',
        security: admin,
        parameters: [
          ...timeRange,
          { name: 'format', in: 'query', schema: { enum: ['csv', 'jsonl'] } },
          { name: 'key', in: 'query', schema: { type: 'string' } },
          { name: 'team', in: 'query', schema: { type: 'string' } },
          { name: 'organization', in: 'query', schema: { type: 'string' } },
          { name: 'end_user', in: 'query', schema: { type: 'string' } },
          { name: 'session', in: 'query', schema: { type: 'string' } },
          { name: 'model', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The rows',
            content: {
              'text/csv': { schema: { type: 'string' } },
              'application/x-ndjson': { schema: { type: 'string' } },
            },
          },
          ...adminErrors,
        },
      },
    },
    '/admin/usage': {
      get: {
        summary: 'Usage totals',
        security: admin,
        parameters: [
          ...timeRange,
          { name: 'key', in: 'query', schema: { type: 'string' } },
          { name: 'team', in: 'query', schema: { type: 'string' } },
          { name: 'organization', in: 'query', schema: { type: 'string' } },
          { name: 'end_user', in: 'query', schema: { type: 'string' } },
          { name: 'session', in: 'query', schema: { type: 'string' } },
          { name: 'model', in: 'query', schema: { type: 'string' } },
          {
            name: 'group_by',
            in: 'query',
            schema: {
              enum: ['key', 'model', 'day', 'status', 'session', 'agent', 'team', 'organization', 'end_user'],
            },
          },
        ],
        responses: {
          '200': { description: 'OK', ...json(ref('UsageTotalsList', listOf(usageTotalsSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/requests': {
      get: {
        summary: 'Ledger rows, newest first',
        security: admin,
        parameters: [
          { name: 'key', in: 'query', schema: { type: 'string' } },
          { name: 'model', in: 'query', schema: { type: 'string' } },
          { name: 'status', in: 'query', schema: { type: 'string' }, description: '429, 4xx, ok or error' },
          {
            name: 'before',
            in: 'query',
            schema: { type: 'string' },
            description: 'ISO-8601, unix ms or a next_before cursor',
          },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
        ],
        responses: {
          '200': { description: 'OK', ...json(ref('UsageRowList', listOf(usageRowSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/batches': {
      get: {
        summary: "Every key's batches still running, with live request_counts (the console's progress view)",
        security: admin,
        responses: {
          '200': { description: 'OK', ...json(ref('AdminBatchList', listOf(adminBatchSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/models': {
      get: {
        summary: 'Configured models and their deployments',
        security: admin,
        responses: {
          '200': { description: 'OK', ...json(ref('ConfiguredModelList', listOf(configuredModelSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/health': {
      get: {
        summary: 'Live health of every deployment',
        security: admin,
        responses: {
          '200': { description: 'OK', ...json(ref('DeploymentHealthList', listOf(deploymentHealthSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/playground/chat/completions': {
      post: {
        summary: 'The console playground: POST /v1/chat/completions with the master key',
        security: admin,
        requestBody: { required: true, ...json(ref('ChatCompletionRequest', chatCompletionRequestSchema, 'input')) },
        responses: {
          '200': {
            description: 'As POST /v1/chat/completions',
            ...json(ref('ChatCompletion', chatCompletionSchema, 'output')),
          },
          ...adminErrors,
        },
      },
    },
  };
}
