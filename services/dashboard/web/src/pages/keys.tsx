import { useState } from 'preact/hooks';
import type { TConsoleKey } from '@partner/contracts/console';
import { get, send } from '../api';
import { useAction, useLoad } from '../hooks';
import { Badge, Button, CardForm, ErrorNote, Field, formatDate, Loading, PageTitle, Section, ShownOnce, TableScroll } from '../ui';
import type { TabProps } from '../types';

const SCOPES = [
  ['menu:read', 'Read the menu'],
  ['assets:read', 'Read 3D models and images'],
  ['webhooks:manage', 'Manage webhooks'],
  ['concierge:chat', 'Chat with the concierge'],
] as const;

/** Keys the platform derives and manages: not revoked here, but by switching off what uses them. */
const MANAGED = {
  'menu-page': 'Used by your public menu page',
  'dashboard-preview': "Used by this dashboard's previews",
} as const;

/** Developers → API keys: new key (its value shown once), the keys with their scopes, revoke. */
export function KeysTab({ owner }: TabProps) {
  const filter = owner.kind === 'restaurant' ? `restaurantId=${owner.id}` : `integratorOrgId=${owner.id}`;
  const keys = useLoad(() => get<TConsoleKey[]>(`/keys?${filter}`), [owner.id]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const revoke = useAction(async (key: TConsoleKey) => {
    if (!confirm(`Revoke "${key.name}"? Every request with it is refused within a second.`)) return;
    await send('POST', `/keys/${key.id}/revoke`);
    keys.reload();
  });
  return (
    <>
      <PageTitle
        action={
          !creating &&
          !created && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              New key
            </Button>
          )
        }
      >
        API keys
      </PageTitle>
      {created && <ShownOnce label="Your new key" value={created} onDone={() => setCreated(null)} />}
      {creating && (
        <NewKeyForm
          owner={owner}
          onCancel={() => setCreating(false)}
          onCreated={(value) => {
            setCreating(false);
            setCreated(value);
            keys.reload();
          }}
        />
      )}
      <Section title="Keys">
        <ErrorNote error={keys.error ?? revoke.error} />
        {!keys.data ? (
          <Loading />
        ) : keys.data.length === 0 ? (
          <p class="muted">No keys yet.</p>
        ) : (
          <TableScroll label="Keys">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Access</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td>
                      <code>{key.redacted}</code>
                      <div class="muted small">
                        {key.type} · {key.environment}
                      </div>
                    </td>
                    <td class="small">{key.type === 'secret' ? key.scopes.join(', ') : key.allowedOrigins.join(', ')}</td>
                    <td class="small">{formatDate(key.createdAt)}</td>
                    <td class="small" data-testid={`last-used-${key.id}`}>
                      {key.lastUsedAt ? formatDate(key.lastUsedAt) : 'Never'}
                    </td>
                    <td>
                      <KeyStatus keyRow={key} />
                    </td>
                    <td>
                      {key.managedBy ? (
                        <span class="muted small">{MANAGED[key.managedBy]}</span>
                      ) : (
                        !key.revokedAt && (
                          <Button variant="danger" onClick={() => void revoke.run(key)} aria-label={`Revoke ${key.name}`}>
                            Revoke
                          </Button>
                        )
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Section>
    </>
  );
}

/** Revoked, expired (the API refuses it as any unknown key) or active, with the expiry ahead when it has one. */
function KeyStatus({ keyRow }: { keyRow: TConsoleKey }) {
  if (keyRow.revokedAt) return <Badge tone="bad">revoked</Badge>;
  if (keyRow.expiresAt && Date.parse(keyRow.expiresAt) <= Date.now()) return <Badge tone="bad">expired</Badge>;
  return (
    <>
      <Badge tone="good">active</Badge>
      {keyRow.expiresAt && <div class="muted small">expires {formatDate(keyRow.expiresAt)}</div>}
    </>
  );
}

function NewKeyForm(props: { owner: TabProps['owner']; onCancel: () => void; onCreated: (value: string) => void }) {
  const [type, setType] = useState<'secret' | 'publishable'>('secret');
  const [environment, setEnvironment] = useState<'live' | 'test'>('test');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(SCOPES.map(([scope]) => scope));
  const [origins, setOrigins] = useState('');
  const create = useAction(() =>
    send<{ value: string }>('POST', '/keys', {
      ...(props.owner.kind === 'restaurant' ? { restaurantId: props.owner.id } : { integratorOrgId: props.owner.id }),
      type,
      environment,
      name,
      ...(type === 'secret' ? { scopes } : { allowedOrigins: origins.split(/[\s,]+/).filter(Boolean) }),
    }),
  );
  return (
    <CardForm title="New key" onSubmit={() => void create.run().then((key) => key && props.onCreated(key.value))}>
      <Field label="Name" hint="Who or what will use it, e.g. “POS integration”.">
        <input name="name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      <fieldset>
        <legend>Type</legend>
        <label class="choice">
          <input type="radio" name="type" checked={type === 'secret'} onChange={() => setType('secret')} /> Secret: for servers, never in a
          browser
        </label>
        <label class="choice">
          <input type="radio" name="type" checked={type === 'publishable'} onChange={() => setType('publishable')} /> Publishable: for
          embeds on your web pages
        </label>
      </fieldset>
      <fieldset>
        <legend>Environment</legend>
        <label class="choice">
          <input type="radio" name="environment" checked={environment === 'test'} onChange={() => setEnvironment('test')} /> Test
        </label>
        <label class="choice">
          <input type="radio" name="environment" checked={environment === 'live'} onChange={() => setEnvironment('live')} /> Live
        </label>
      </fieldset>
      {type === 'secret' ? (
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map(([scope, label]) => (
            <label class="choice" key={scope}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => setScopes(e.currentTarget.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
              />{' '}
              {label} <code>{scope}</code>
            </label>
          ))}
        </fieldset>
      ) : (
        <Field label="Allowed origins" hint="The sites that may use it, one per line: https://www.example.com or https://*.example.com">
          <textarea name="origins" rows={3} required value={origins} onInput={(e) => setOrigins(e.currentTarget.value)} />
        </Field>
      )}
      <ErrorNote error={create.error} />
      <div class="actions">
        <Button type="submit" variant="primary" busy={create.running}>
          Create key
        </Button>
        <Button onClick={props.onCancel}>Cancel</Button>
      </div>
    </CardForm>
  );
}
