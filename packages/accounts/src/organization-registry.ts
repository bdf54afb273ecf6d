import { GatewayError } from '@switchyard/core';
import type { AccountStore } from './account-store.js';
import { LimitGroupRegistry } from './limit-group-registry.js';
import type { Organization } from './organization.js';

/** 404 for an unknown organisation id, naming `param`. */
export function organizationNotFoundError(id: string, param = 'id'): GatewayError {
  return new GatewayError({
    status: 404,
    type: 'invalid_request_error',
    code: 'organization_not_found',
    param,
    message: `No organization with id '${id}'.`,
  });
}

/**
 * The organisations, held in memory and written through to the store like teams (see `TeamRegistry`), announced to
 * other replicas as `organization:<id>`. Deleting one throws 409 `organization_has_teams` while teams name it (move
 * them with PATCH `organization_id`, or delete them, first).
 */
export class OrganizationRegistry extends LimitGroupRegistry<Organization> {
  constructor(store: AccountStore, announce: (id: string) => Promise<void>) {
    super({
      idPrefix: 'org',
      table: {
        list: () => store.listOrganizations(),
        get: (id) => store.getOrganization(id),
        insert: (org) => store.insertOrganization(org),
        update: (org) => store.updateOrganization(org),
        delete: (id) => store.deleteOrganization(id),
      },
      hasMembers: (id, members) =>
        new GatewayError({
          status: 409,
          type: 'invalid_request_error',
          code: 'organization_has_teams',
          param: 'id',
          message: `Organization '${id}' still has ${members} team(s): move them to another organization (PATCH organization_id) or delete them first.`,
        }),
      announce,
    });
  }
}
