import {
  type Accounts,
  createOrganizationInputSchema,
  createTeamInputSchema,
  organizationNotFoundError,
  teamNotFoundError,
  updateOrganizationInputSchema,
  updateTeamInputSchema,
} from '@switchyard/accounts';
import type { Router } from 'express';
import { addGroupRoutes } from './group-routes.js';

/**
 * The teams and organisations of the admin API (see `addGroupRoutes`): `/teams` (bodies take the limit fields of keys
 * and `organization_id`; DELETE answers 409 `team_has_keys` while active keys name the team; unknown ids 404
 * `team_not_found`; audit actions `team.create`, `team.update`, `team.delete`) and `/organizations` (the same limit
 * fields; DELETE answers 409 `organization_has_teams` while teams name it; unknown ids 404 `organization_not_found`;
 * audit actions `organization.create`, `organization.update`, `organization.delete`).
 */
export function addTeamsRoutes(router: Router, accounts: Accounts): void {
  addGroupRoutes(router, accounts, {
    path: '/teams',
    name: 'team',
    registry: accounts.teams,
    remove: (id) => accounts.deleteTeam(id),
    createSchema: createTeamInputSchema,
    updateSchema: updateTeamInputSchema,
    notFound: (id) => teamNotFoundError(id),
  });
  addGroupRoutes(router, accounts, {
    path: '/organizations',
    name: 'organization',
    registry: accounts.organizations,
    remove: (id) => accounts.deleteOrganization(id),
    createSchema: createOrganizationInputSchema,
    updateSchema: updateOrganizationInputSchema,
    notFound: (id) => organizationNotFoundError(id),
  });
}
