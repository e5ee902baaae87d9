import type { TSession } from '@partner/contracts/console';

export type TMembership = TSession['memberships'][number];

/** The console path of an owner: `/restaurants/rst_…` or `/integrators/org_…`. */
export const ownerPath = (owner: Pick<TMembership, 'kind' | 'id'>) =>
  `/${owner.kind === 'restaurant' ? 'restaurants' : 'integrators'}/${owner.id}`;

/** What every tab of a restaurant's or integrator's pages is given. */
export interface TabProps {
  owner: TMembership;
}
