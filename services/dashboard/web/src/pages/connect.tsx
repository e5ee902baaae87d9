import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { get, send } from '../api';
import { useAction, useLoad } from '../hooks';
import { useSession } from '../session';
import { Button, ErrorNote, Field, Loading, Note, PageTitle } from '../ui';

interface ConnectLinkPreview {
  integrator: { id: string; name: string };
  scopes: string[];
  expiresAt: string;
}

const SCOPE_WORDS: Record<string, string> = {
  'menu:read': 'read your menu: sections, dishes, prices, allergens',
  'assets:read': 'show your dishes’ 3D models and photos',
  'webhooks:manage': 'be told when your menu changes',
  'concierge:chat': 'let guests ask your concierge about the menu',
};

/** The consent screen: who asks, for what, and for which of the owner's restaurants. */
export function ConnectPage(props: { params?: { token: string } }) {
  const token = props.params?.token ?? '';
  const { session } = useSession();
  const location = useLocation();
  const link = useLoad(() => get<ConnectLinkPreview>(`/connect-links/${encodeURIComponent(token)}`), [token]);
  const restaurants = (session?.memberships ?? []).filter((m) => m.kind === 'restaurant' && m.role === 'owner');
  const [restaurantId, setRestaurantId] = useState(restaurants[0]?.id ?? '');
  const approve = useAction(() => send('POST', `/connect-links/${encodeURIComponent(token)}/approve`, { restaurantId }));
  if (link.error) {
    return (
      <div class="page narrow">
        <PageTitle>Connect an integrator</PageTitle>
        <Note tone="warning">{link.error.message}</Note>
      </div>
    );
  }
  if (!link.data) return <Loading />;
  return (
    <div class="page narrow">
      <PageTitle>Connect {link.data.integrator.name}</PageTitle>
      <form
        class="card stack"
        onSubmit={(event) => {
          event.preventDefault();
          void approve.run().then((grant) => grant && location.route(`/restaurants/${restaurantId}/integrations`));
        }}
      >
        <p>
          <strong>{link.data.integrator.name}</strong> asks to:
        </p>
        <ul class="consent">
          {link.data.scopes.map((scope) => (
            <li key={scope}>
              {SCOPE_WORDS[scope] ?? scope} <code class="small">{scope}</code>
            </li>
          ))}
        </ul>
        {restaurants.length === 0 ? (
          <Note tone="warning">Only a restaurant's owner can approve this, and you own none.</Note>
        ) : (
          <Field label="For the restaurant">
            <select value={restaurantId} onChange={(e) => setRestaurantId(e.currentTarget.value)}>
              {restaurants.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <p class="muted small">You can revoke this access at any time from Integrations.</p>
        <ErrorNote error={approve.error} />
        <div class="actions">
          <Button type="submit" variant="primary" busy={approve.running} disabled={restaurants.length === 0}>
            Approve
          </Button>
          <Button onClick={() => location.route('/')}>Cancel</Button>
        </div>
      </form>
    </div>
  );
}
