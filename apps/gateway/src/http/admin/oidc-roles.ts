import { ADMIN_ROLES, type AdminRole } from '@switchyard/accounts';
import { z } from 'zod';
import type { OidcConfig } from '../../config/admin-config-schema.js';
import type { AdminIdentity } from './admin-identity.js';

const claimValues = z.union([z.string().transform((value) => [value]), z.array(z.string())]).catch([]);
const text = z.string().min(1).optional().catch(undefined);

/** The values of a claim that holds a string or a list of strings (anything else counts as none). */
const valuesOf = (claims: Record<string, unknown>, name: string): string[] => claimValues.parse(claims[name] ?? []);

/**
 * The console identity an ID token's claims give under `admin.oidc`: `actor` is `oidc:<email or sub>`; the role is
 * the most powerful of (a) each value of `role_claim` that is a `role_mapping` key (its role) or a role name, and (b)
 * the `role_mapping` entries of the user's `email` and `sub`. A `team_admin`'s teams are the values of `team_claim`
 * plus the `teams` of its mapping entries. Answers `{ refused }` (a reason for the audit log) when no role applies,
 * or a `team_admin` has no team.
 */
export function identityFromClaims(
  claims: Record<string, unknown>,
  config: Pick<OidcConfig, 'role_claim' | 'role_mapping' | 'team_claim'>,
): AdminIdentity | { refused: string; actor: string } {
  const email = text.parse(claims.email);
  const sub = text.parse(claims.sub) ?? '';
  const actor = `oidc:${email ?? sub}`;
  const granted: { role: AdminRole; teams: string[] }[] = [];
  const grant = (name: string | undefined, fromClaim: boolean) => {
    if (name === undefined) return;
    const mapped = Object.hasOwn(config.role_mapping, name) ? config.role_mapping[name] : undefined;
    if (typeof mapped === 'string') granted.push({ role: mapped, teams: [] });
    else if (mapped) granted.push({ role: mapped.role, teams: mapped.teams });
    else if (fromClaim && (ADMIN_ROLES as readonly string[]).includes(name))
      granted.push({ role: name as AdminRole, teams: [] });
  };
  for (const value of valuesOf(claims, config.role_claim)) grant(value, true);
  grant(email, false);
  grant(sub, false);
  const role = ADMIN_ROLES.find((r) => granted.some((g) => g.role === r));
  if (!role) return { refused: `no role: neither '${config.role_claim}' nor role_mapping gives one`, actor };
  if (role !== 'team_admin') return { actor, role, teams: [], method: 'oidc' };
  const teams = [
    ...new Set([
      ...valuesOf(claims, config.team_claim),
      ...granted.filter((g) => g.role === role).flatMap((g) => g.teams),
    ]),
  ];
  if (teams.length === 0) return { refused: `team_admin without teams: '${config.team_claim}' names none`, actor };
  return { actor, role, teams, method: 'oidc' };
}
