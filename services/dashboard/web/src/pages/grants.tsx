import type { TGrant } from '@partner/contracts/console';
import { get, send } from '../api';
import { useAction, useLoad } from '../hooks';
import { ownerPath } from '../types';
import { Badge, Button, ErrorNote, formatDate, Loading, PageTitle, Section } from '../ui';
import type { TabProps } from '../types';

/**
 * The access this owner has given (a restaurant's integrators) or been given (an integrator's
 * restaurants), with revoke. A restaurant approves a new integrator from the link the integrator sent.
 */
export function GrantsList({ owner }: TabProps) {
  const grants = useLoad(() => get<TGrant[]>(`${ownerPath(owner)}/grants`), [owner.id]);
  const revoke = useAction(async (grant: TGrant) => {
    if (!confirm('Revoke this access? The integrator is refused at once.')) return;
    await send('POST', `/grants/${grant.id}/revoke`);
    grants.reload();
  });
  const other = (grant: TGrant) => (owner.kind === 'restaurant' ? grant.integratorName : grant.restaurantName);
  return (
    <Section title={owner.kind === 'restaurant' ? 'Integrators with access' : 'Restaurants that granted access'}>
      <ErrorNote error={grants.error ?? revoke.error} />
      {!grants.data ? (
        <Loading />
      ) : grants.data.length === 0 ? (
        <p class="muted">
          {owner.kind === 'restaurant'
            ? 'No integrator has access. Approve one from the connect link it sends you.'
            : 'No restaurant yet: send one a connect link.'}
        </p>
      ) : (
        <ul class="rows">
          {grants.data.map((grant) => (
            <li class="row" key={grant.id}>
              <div>
                <strong>{other(grant)}</strong>
                <div class="muted small">
                  {grant.scopes.join(', ')} · since {formatDate(grant.createdAt)}
                </div>
              </div>
              <Badge tone={grant.status === 'active' ? 'good' : 'neutral'}>{grant.status}</Badge>
              {grant.status === 'active' && (
                <Button variant="danger" busy={revoke.running} onClick={() => void revoke.run(grant)}>
                  Revoke
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

export function GrantsTab(props: TabProps) {
  return (
    <>
      <PageTitle>Integrations</PageTitle>
      <GrantsList {...props} />
    </>
  );
}
