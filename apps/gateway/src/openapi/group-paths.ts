import {
  createOrganizationInputSchema,
  createTeamInputSchema,
  updateOrganizationInputSchema,
  updateTeamInputSchema,
} from '@switchyard/accounts';
import type { z } from 'zod';
import { listOf, organizationSchema, teamSchema } from './admin-schemas.js';
import type { DocumentParts, JsonObject } from './document-parts.js';

type Parts = Pick<DocumentParts, 'ref' | 'json' | 'adminErrors' | 'admin'>;

/** The path items of one kind of group (`/admin/teams`, `/admin/organizations`; see `addGroupRoutes`). */
function groupPaths(
  { ref, json, adminErrors: errors, admin: security }: Parts,
  kind: { path: string; name: string; schema: z.ZodType; create: z.ZodType; update: z.ZodType },
  text: { create: string; remove: string },
): Record<string, JsonObject> {
  const one = { description: 'OK', ...json(ref(kind.name, kind.schema, 'output')) };
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  const lower = kind.name.toLowerCase();
  return {
    [kind.path]: {
      post: {
        summary: text.create,
        security,
        requestBody: { required: true, ...json(ref(`Create${kind.name}Input`, kind.create, 'input')) },
        responses: { '201': { ...one, description: 'Created' }, ...errors },
      },
      get: {
        summary: `Every ${lower}, each with its spend in its current budget window`,
        security,
        responses: {
          '200': { description: 'OK', ...json(ref(`${kind.name}List`, listOf(kind.schema), 'output')) },
          ...errors,
        },
      },
    },
    [`${kind.path}/{id}`]: {
      get: { summary: `One ${lower}`, security, parameters: [idParam], responses: { '200': one, ...errors } },
      patch: {
        summary: `Change ${lower === 'organization' ? 'an' : 'a'} ${lower}'s fields and limits (they apply at once)`,
        security,
        parameters: [idParam],
        requestBody: { required: true, ...json(ref(`Update${kind.name}Input`, kind.update, 'input')) },
        responses: { '200': one, ...errors },
      },
      delete: {
        summary: text.remove,
        security,
        parameters: [idParam],
        responses: { '200': { ...one, description: 'Deleted' }, ...errors },
      },
    },
  };
}

/** The OpenAPI path items of `/admin/teams` and `/admin/organizations` (see `addTeamsRoutes`). */
export function teamAndOrganizationPaths(helpers: Parts): Record<string, JsonObject> {
  return {
    ...groupPaths(
      helpers,
      {
        path: '/admin/teams',
        name: 'Team',
        schema: teamSchema,
        create: createTeamInputSchema,
        update: updateTeamInputSchema,
      },
      {
        create: 'Create a team (its limits apply to every member key)',
        remove: 'Delete a team (409 while active keys name it)',
      },
    ),
    ...groupPaths(
      helpers,
      {
        path: '/admin/organizations',
        name: 'Organization',
        schema: organizationSchema,
        create: createOrganizationInputSchema,
        update: updateOrganizationInputSchema,
      },
      {
        create: 'Create an organization (its limits apply to every key of its teams)',
        remove: 'Delete an organization (409 while teams name it)',
      },
    ),
  };
}
