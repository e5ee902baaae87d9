import { useState } from 'preact/hooks';
import type { TWebhookDelivery, TWebhookEndpoint, TWebhookRecovery } from '@partner/contracts';
import { call, get, send } from '../api';
import { useAction, useLoad } from '../hooks';
import { ownerPath } from '../types';
import { Badge, Button, CardForm, ErrorNote, Field, formatDate, Loading, Note, PageTitle, Section, ShownOnce, TableScroll } from '../ui';
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

const DELIVERIES_PAGE = 50;

/** What a recovery did, in words: how many missed events were queued again, and whether more remain. */
function recoveryNotice(url: string, recovery: TWebhookRecovery, reEnabled: boolean): string {
  const queued = `${recovery.queued} missed event${recovery.queued === 1 ? '' : 's'} queued again`;
  const held = recovery.held ? ` (${recovery.held} held until your subscription is renewed)` : '';
  const more = recovery.truncated ? ' More were missed than one step takes: resend missed events again for the next ones.' : '';
  return `${reEnabled ? `${url} is active again; ` : ''}${queued}${held}.${more}`;
}

/** Endpoints (create, test, rotate, re-enable, resend what they missed, delete) and their deliveries (resend). */
export function WebhooksTab({ owner }: TabProps) {
  const base = ownerPath(owner);
  const endpoints = useLoad(() => get<TWebhookEndpoint[]>(`${base}/webhook-endpoints?limit=100`), [owner.id]);
  // The newest page, then older ones on demand: after an outage the log is long.
  const deliveries = useLoad(() => call<TWebhookDelivery[]>('GET', `${base}/webhook-deliveries?limit=${DELIVERIES_PAGE}`), [owner.id]);
  const [older, setOlder] = useState<{ rows: TWebhookDelivery[]; nextCursor: string | null } | null>(null);
  const shown = [...(deliveries.data?.data ?? []), ...(older?.rows ?? [])];
  const nextCursor = older ? older.nextCursor : ((deliveries.data?.meta?.nextCursor as string | null | undefined) ?? null);
  const showOlder = useAction(async () => {
    const page = await call<TWebhookDelivery[]>(
      'GET',
      `${base}/webhook-deliveries?limit=${DELIVERIES_PAGE}&cursor=${encodeURIComponent(nextCursor!)}`,
    );
    setOlder({ rows: [...(older?.rows ?? []), ...page.data], nextCursor: (page.meta?.nextCursor as string | null | undefined) ?? null });
  });
  const reloadDeliveries = () => {
    setOlder(null);
    deliveries.reload();
  };
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<TWebhookEndpoint | null>(null);
  const [recovering, setRecovering] = useState<TWebhookEndpoint | null>(null);
  const [inspecting, setInspecting] = useState<TWebhookDelivery | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => {
    endpoints.reload();
    reloadDeliveries();
  };
  const act = useAction(async (what: 'test' | 'rotate-secret' | 'delete', endpoint: TWebhookEndpoint) => {
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
    }
    refresh();
  });
  const resend = useAction(async (delivery: TWebhookDelivery) => {
    // An event still under way to the endpoint is not queued twice: its waiting attempt goes now (200).
    const { status } = await call('POST', `${base}/webhook-deliveries/${delivery.id}/resend`);
    setNotice(
      status === 200
        ? `${delivery.eventType} is already under way to this endpoint: its next attempt goes now.`
        : `${delivery.eventType} queued again: a new delivery appears below.`,
    );
    reloadDeliveries();
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
      {(creating || editing) && (
        <EndpointForm
          key={editing?.id ?? 'new'}
          base={base}
          endpoint={editing ?? undefined}
          onCancel={() => {
            setCreating(false);
            setEditing(null);
          }}
          onSaved={(created) => {
            setCreating(false);
            setEditing(null);
            if (created) setSecret(created);
            refresh();
          }}
        />
      )}
      {recovering && (
        <RecoverForm
          key={recovering.id}
          base={base}
          endpoint={recovering}
          onCancel={() => setRecovering(null)}
          onDone={(text) => {
            setRecovering(null);
            setNotice(text);
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
                    <Button variant="primary" onClick={() => setRecovering(endpoint)}>
                      Re-enable…
                    </Button>
                  ) : (
                    <>
                      <Button busy={act.running} onClick={() => void act.run('test', endpoint)}>
                        Send test event
                      </Button>
                      <Button onClick={() => setRecovering(endpoint)} aria-label={`Resend missed events… to ${endpoint.url}`}>
                        Resend missed events…
                      </Button>
                    </>
                  )}
                  <Button onClick={() => setEditing(endpoint)} aria-label={`Edit ${endpoint.url}`}>
                    Edit
                  </Button>
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
      {inspecting && <DeliveryDetail base={base} delivery={inspecting} onClose={() => setInspecting(null)} />}
      <Section title="Deliveries" action={<Button onClick={reloadDeliveries}>Refresh</Button>}>
        <ErrorNote error={deliveries.error ?? resend.error ?? showOlder.error} />
        {!deliveries.data ? (
          <Loading />
        ) : shown.length === 0 ? (
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
                {shown.map((delivery) => (
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
                    <td class="actions">
                      <Button onClick={() => setInspecting(delivery)} aria-label={`Details of ${delivery.eventType} ${delivery.id}`}>
                        Details
                      </Button>
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
        {nextCursor && (
          <div class="actions">
            <Button busy={showOlder.running} onClick={() => void showOlder.run()}>
              Show older deliveries
            </Button>
          </div>
        )}
      </Section>
    </>
  );
}

/** As a datetime-local input shows a time: the browser's local time, to the minute. */
const localInputValue = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/**
 * Re-enable a disabled endpoint (and queue again what it missed since a time), or queue again what an
 * active one missed: every event whose deliveries to it since then failed, expired or were skipped.
 */
function RecoverForm(props: { base: string; endpoint: TWebhookEndpoint; onCancel: () => void; onDone: (notice: string) => void }) {
  const { endpoint } = props;
  const disabled = endpoint.status === 'disabled';
  const now = new Date();
  const [since, setSince] = useState(localInputValue(new Date(now.getTime() - 3 * 86_400_000)));
  const path = `${props.base}/webhook-endpoints/${endpoint.id}`;
  const run = useAction(async (resend: boolean) => {
    const recoverSince = new Date(since).toISOString();
    if (!disabled) {
      const recovery = await send<TWebhookRecovery>('POST', `${path}/recover`, { since: recoverSince });
      return props.onDone(recoveryNotice(endpoint.url, recovery, false));
    }
    const answer = await call('POST', `${path}/enable`, resend ? { recoverSince } : {});
    const recovery = answer.meta?.recovery as TWebhookRecovery | undefined;
    props.onDone(recovery ? recoveryNotice(endpoint.url, recovery, true) : `${endpoint.url} is active again.`);
  });
  const title = disabled ? 'Re-enable the endpoint' : 'Resend missed events';
  return (
    <CardForm title={title} onSubmit={() => void run.run(true)}>
      <p>
        <code class="break">{endpoint.url}</code>
      </p>
      <Field label="Missed since" hint="Every event since then that did not reach it is sent again (30 days back at most).">
        <input
          type="datetime-local"
          required
          value={since}
          min={localInputValue(new Date(now.getTime() - 30 * 86_400_000 + 60_000))}
          max={localInputValue(now)}
          onInput={(e) => setSince(e.currentTarget.value)}
        />
      </Field>
      <ErrorNote error={run.error} />
      <div class="actions">
        <Button type="submit" variant="primary" busy={run.running}>
          {disabled ? 'Re-enable and resend what it missed' : 'Resend missed events'}
        </Button>
        {disabled && (
          <Button busy={run.running} onClick={() => void run.run(false)}>
            Re-enable only
          </Button>
        )}
        <Button onClick={props.onCancel}>Cancel</Button>
      </div>
    </CardForm>
  );
}

/** A new endpoint (its secret is shown once after), or an existing one's URL, events and description. */
function EndpointForm(props: { base: string; endpoint?: TWebhookEndpoint; onCancel: () => void; onSaved: (secret?: string) => void }) {
  const existing = props.endpoint;
  const [url, setUrl] = useState(existing?.url ?? '');
  const [events, setEvents] = useState<string[]>(existing?.enabledEvents.filter((type) => type !== '*') ?? []);
  const [description, setDescription] = useState(existing?.description ?? '');
  const save = useAction(async () => {
    // An edit sends the description as it is, so that clearing it clears it.
    const body = { url, enabledEvents: events.length ? events : ['*'], description: existing ? description : description || undefined };
    if (!existing) return { secret: (await send<{ secret: string }>('POST', `${props.base}/webhook-endpoints`, body)).secret };
    await send('PATCH', `${props.base}/webhook-endpoints/${existing.id}`, body);
    return { secret: undefined };
  });
  const title = existing ? 'Edit endpoint' : 'New endpoint';
  return (
    <CardForm title={title} onSubmit={() => void save.run().then((saved) => saved && props.onSaved(saved.secret))}>
      <Field label="URL" hint="An https:// address of yours that answers 2xx quickly.">
        <input name="url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </Field>
      <Field label="Description">
        <input name="description" maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
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
      <ErrorNote error={save.error} />
      <div class="actions">
        <Button type="submit" variant="primary" busy={save.running}>
          {existing ? 'Save endpoint' : 'Add endpoint'}
        </Button>
        <Button onClick={props.onCancel}>Cancel</Button>
      </div>
    </CardForm>
  );
}

/** One delivery: what the receiver was sent, and every attempt at sending it there with its answer. */
function DeliveryDetail(props: { base: string; delivery: TWebhookDelivery; onClose: () => void }) {
  const detail = useLoad(
    () =>
      get<TWebhookDelivery & { payload: unknown; attempts: TWebhookDelivery[] }>(`${props.base}/webhook-deliveries/${props.delivery.id}`),
    [props.delivery.id],
  );
  return (
    <section class="card stack" aria-label={`Delivery ${props.delivery.id}`}>
      <div class="card-head">
        <h2>
          <code>{props.delivery.eventType}</code> delivery
        </h2>
        <Button onClick={props.onClose}>Close</Button>
      </div>
      <ErrorNote error={detail.error} />
      {!detail.data ? (
        <Loading />
      ) : (
        <>
          <h3>Attempts</h3>
          <TableScroll label="Attempts">
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Status</th>
                  <th scope="col">Answer</th>
                </tr>
              </thead>
              <tbody>
                {detail.data.attempts.map((attempt) => (
                  <tr key={attempt.id}>
                    <td class="small">{formatDate(attempt.createdAt)}</td>
                    <td>{attempt.attempt}</td>
                    <td>
                      <Badge tone={STATUS_TONE[attempt.status] ?? 'neutral'}>{attempt.status}</Badge>
                    </td>
                    <td class="small">
                      {attempt.responseStatus ?? '—'}
                      {attempt.durationMs !== null && ` in ${attempt.durationMs} ms`}
                      {attempt.error && <div class="muted">{attempt.error}</div>}
                      {attempt.nextAttemptAt && <div class="muted">due {formatDate(attempt.nextAttemptAt)}</div>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <h3>Payload</h3>
          {detail.data.payload === null ? (
            <p class="muted">A test event is not kept; nor is an event past the delivery log's retention.</p>
          ) : (
            <pre class="snippet" tabIndex={0} aria-label="Payload" data-testid="delivery-payload">
              <code>{JSON.stringify(detail.data.payload, null, 2)}</code>
            </pre>
          )}
        </>
      )}
    </section>
  );
}
