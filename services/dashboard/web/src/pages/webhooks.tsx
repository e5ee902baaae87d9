import { useState } from 'preact/hooks';
import type { TWebhookDelivery, TWebhookEndpoint } from '@partner/contracts';
import { get, send } from '../api';
import { useAction, useLoad } from '../hooks';
import { ownerPath } from '../types';
import { Badge, Button, ErrorNote, Field, formatDate, Loading, Note, PageTitle, Section, ShownOnce, TableScroll } from '../ui';
import type { TabProps } from '../types';

/** The API's event types (EVENT_TYPES of @partner/contracts, not imported: that would bring zod into the page). */
const EVENT_TYPES = [
  'item.created',
  'item.updated',
  'item.deleted',
  'menu.updated',
  'model.ready',
  'model.failed',
  'grant.activated',
  'grant.revoked',
];

const STATUS_TONE: Record<string, 'good' | 'bad' | 'neutral' | 'warn'> = {
  succeeded: 'good',
  failed: 'bad',
  expired: 'bad',
  pending: 'neutral',
  held: 'warn',
  skipped: 'warn',
  active: 'good',
  disabled: 'bad',
};

/** Endpoints (create, test, rotate, re-enable, delete) and the deliveries made to them (resend). */
export function WebhooksTab({ owner }: TabProps) {
  const base = ownerPath(owner);
  const endpoints = useLoad(() => get<TWebhookEndpoint[]>(`${base}/webhook-endpoints?limit=100`), [owner.id]);
  const deliveries = useLoad(() => get<TWebhookDelivery[]>(`${base}/webhook-deliveries?limit=50`), [owner.id]);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => {
    endpoints.reload();
    deliveries.reload();
  };
  const act = useAction(async (what: 'test' | 'rotate-secret' | 'enable' | 'delete', endpoint: TWebhookEndpoint) => {
    setNotice(null);
    if (what === 'delete') {
      if (!confirm(`Delete the endpoint ${endpoint.url}? Nothing more is sent to it.`)) return;
      await send('DELETE', `${base}/webhook-endpoints/${endpoint.id}`);
    } else if (what === 'rotate-secret') {
      const rotated = await send<{ secret: string }>('POST', `${base}/webhook-endpoints/${endpoint.id}/rotate-secret`, {});
      setSecret(rotated.secret);
    } else if (what === 'test') {
      const delivery = await send<TWebhookDelivery>('POST', `${base}/webhook-endpoints/${endpoint.id}/test`, {});
      setNotice(
        delivery.status === 'succeeded'
          ? `Test event delivered: your endpoint answered ${delivery.responseStatus} in ${delivery.durationMs} ms.`
          : `The test event was not accepted: ${delivery.error ?? `your endpoint answered ${delivery.responseStatus}`}.`,
      );
    } else {
      await send('POST', `${base}/webhook-endpoints/${endpoint.id}/enable`, {});
      setNotice(`${endpoint.url} is active again. Events kept while it was disabled can be resent below.`);
    }
    refresh();
  });
  const resend = useAction(async (delivery: TWebhookDelivery) => {
    await send('POST', `${base}/webhook-deliveries/${delivery.id}/resend`);
    setNotice(`${delivery.eventType} queued again: a new delivery appears below.`);
    deliveries.reload();
  });
  return (
    <>
      <PageTitle
        action={
          !creating && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              New endpoint
            </Button>
          )
        }
      >
        Webhooks
      </PageTitle>
      {secret && <ShownOnce label="The endpoint's signing secret" value={secret} onDone={() => setSecret(null)} />}
      {notice && <Note tone="success">{notice}</Note>}
      {creating && (
        <NewEndpointForm
          base={base}
          onCancel={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            setSecret(created);
            refresh();
          }}
        />
      )}
      <Section title="Endpoints">
        <ErrorNote error={endpoints.error ?? act.error} />
        {!endpoints.data ? (
          <Loading />
        ) : endpoints.data.length === 0 ? (
          <p class="muted">No endpoints yet: add one to be told when the menu changes.</p>
        ) : (
          <ul class="rows">
            {endpoints.data.map((endpoint) => (
              <li key={endpoint.id} class="row">
                <div>
                  <code class="break">{endpoint.url}</code>
                  <div class="muted small">{endpoint.enabledEvents.join(', ')}</div>
                  {endpoint.disabledReason && <div class="small">Disabled: {endpoint.disabledReason}</div>}
                </div>
                <Badge tone={STATUS_TONE[endpoint.status] ?? 'neutral'}>{endpoint.status}</Badge>
                <div class="actions">
                  {endpoint.status === 'disabled' ? (
                    <Button variant="primary" busy={act.running} onClick={() => void act.run('enable', endpoint)}>
                      Re-enable
                    </Button>
                  ) : (
                    <Button busy={act.running} onClick={() => void act.run('test', endpoint)}>
                      Send test event
                    </Button>
                  )}
                  <Button busy={act.running} onClick={() => void act.run('rotate-secret', endpoint)}>
                    Rotate secret
                  </Button>
                  <Button
                    variant="danger"
                    busy={act.running}
                    onClick={() => void act.run('delete', endpoint)}
                    aria-label={`Delete ${endpoint.url}`}
                  >
                    Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Deliveries" action={<Button onClick={deliveries.reload}>Refresh</Button>}>
        <ErrorNote error={deliveries.error ?? resend.error} />
        {!deliveries.data ? (
          <Loading />
        ) : deliveries.data.length === 0 ? (
          <p class="muted">Nothing delivered yet.</p>
        ) : (
          <TableScroll label="Deliveries">
            <table>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Answer</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>
                      <code>{delivery.eventType}</code>
                      <div class="muted small">{delivery.eventId}</div>
                    </td>
                    <td>
                      <Badge tone={STATUS_TONE[delivery.status] ?? 'neutral'}>{delivery.status}</Badge>
                    </td>
                    <td>{delivery.attempt}</td>
                    <td class="small">
                      {delivery.responseStatus ?? '—'}
                      {delivery.durationMs !== null && ` in ${delivery.durationMs} ms`}
                      {delivery.error && <div class="muted">{delivery.error}</div>}
                      {delivery.nextAttemptAt && <div class="muted">next try {formatDate(delivery.nextAttemptAt)}</div>}
                    </td>
                    <td class="small">{formatDate(delivery.createdAt)}</td>
                    <td>
                      {delivery.eventType !== 'ping' && (
                        <Button
                          busy={resend.running}
                          onClick={() => void resend.run(delivery)}
                          aria-label={`Resend ${delivery.eventType} ${delivery.id}`}
                        >
                          Resend
                        </Button>
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

function NewEndpointForm(props: { base: string; onCancel: () => void; onCreated: (secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const create = useAction(() =>
    send<{ secret: string }>('POST', `${props.base}/webhook-endpoints`, { url, enabledEvents: events.length ? events : ['*'] }),
  );
  return (
    <form
      class="card stack"
      aria-label="New endpoint"
      onSubmit={(event) => {
        event.preventDefault();
        void create.run().then((created) => created && props.onCreated(created.secret));
      }}
    >
      <h2>New endpoint</h2>
      <Field label="URL" hint="An https:// address of yours that answers 2xx quickly.">
        <input name="url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </Field>
      <fieldset>
        <legend>Events (none ticked: every event)</legend>
        <div class="choices">
          {EVENT_TYPES.map((type) => (
            <label class="choice" key={type}>
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) => setEvents(e.currentTarget.checked ? [...events, type] : events.filter((t) => t !== type))}
              />{' '}
              <code>{type}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <ErrorNote error={create.error} />
      <div class="actions">
        <Button type="submit" variant="primary" busy={create.running}>
          Add endpoint
        </Button>
        <Button onClick={props.onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
