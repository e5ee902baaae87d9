import { useEffect, useState } from 'preact/hooks';
import type { TConsoleRestaurant } from '@partner/contracts/console';
import { get, send } from '../api';
import { Embed } from '../embeds';
import { useAction, useLoad } from '../hooks';
import { ownerPath } from '../types';
import { Button, ErrorNote, Field, Loading, Note, PageTitle, Section } from '../ui';
import type { TabProps } from '../types';

/** The assistant: on or off, its name and welcome, and the house notes it may quote. */
export function ConciergeTab({ owner }: TabProps) {
  const base = ownerPath(owner);
  const restaurant = useLoad(() => get<TConsoleRestaurant>(base), [owner.id]);
  const [saved, setSaved] = useState(false);
  const toggle = useAction(async (enabled: boolean) => {
    await send('PATCH', base, { conciergeEnabled: enabled });
    restaurant.reload();
  });
  const save = useAction(async () => {
    setSaved(false);
    await send('PATCH', base, {
      concierge: { displayName: form!.displayName, welcomeMessage: form!.welcomeMessage },
      houseNotes: form!.houseNotes || null,
    });
    restaurant.reload();
    setSaved(true);
  });
  // Filled from the restaurant when it first loads: a reload for another reason (the switch) keeps what
  // the owner is typing.
  const [form, setForm] = useState<{ restaurantId: string; displayName: string; welcomeMessage: string; houseNotes: string } | null>(null);
  useEffect(() => {
    if (restaurant.data && form?.restaurantId !== restaurant.data.id) {
      setForm({
        restaurantId: restaurant.data.id,
        displayName: restaurant.data.concierge.displayName,
        welcomeMessage: restaurant.data.concierge.welcomeMessage,
        houseNotes: restaurant.data.houseNotes ?? '',
      });
    }
  }, [restaurant.data]);
  if (!restaurant.data || !form) return restaurant.error ? <ErrorNote error={restaurant.error} /> : <Loading />;
  const on = restaurant.data.conciergeEnabled;
  return (
    <>
      <PageTitle>Concierge</PageTitle>
      <Section title="Assistant">
        {!restaurant.data.conciergeAddon && (
          <Note tone="warning">The concierge add-on is not part of your plan: switched on, it still answers 403.</Note>
        )}
        <p>
          The concierge is <strong data-testid="concierge-state">{on ? 'on' : 'off'}</strong>.
        </p>
        <ErrorNote error={toggle.error} />
        <Button variant={on ? 'danger' : 'primary'} busy={toggle.running} onClick={() => void toggle.run(!on)}>
          {on ? 'Switch the concierge off' : 'Switch the concierge on'}
        </Button>
      </Section>
      <Section title="Try it">
        <TryIt restaurantId={owner.id} />
      </Section>
      <Section title="How it presents itself">
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void save.run();
          }}
        >
          <Field label="Name">
            <input
              required
              maxLength={80}
              value={form.displayName}
              onInput={(e) => setForm({ ...form, displayName: e.currentTarget.value })}
            />
          </Field>
          <Field label="Welcome message">
            <input
              required
              maxLength={500}
              value={form.welcomeMessage}
              onInput={(e) => setForm({ ...form, welcomeMessage: e.currentTarget.value })}
            />
          </Field>
          <Field label="House notes" hint="Opening hours, reservations, corkage: the concierge may quote them, nothing else of yours.">
            <textarea
              rows={5}
              maxLength={10000}
              value={form.houseNotes}
              onInput={(e) => setForm({ ...form, houseNotes: e.currentTarget.value })}
            />
          </Field>
          <ErrorNote error={save.error} />
          {saved && <Note tone="success">Saved.</Note>}
          <div class="actions">
            <Button type="submit" variant="primary" busy={save.running}>
              Save
            </Button>
          </div>
        </form>
      </Section>
    </>
  );
}

/** The concierge widget itself, with the dashboard's test key: answers as guests would get them, in test mode. */
function TryIt(props: { restaurantId: string }) {
  return (
    <Embed restaurantId={props.restaurantId} file="concierge.v1.js" what="widget">
      {(key) => (
        <>
          <p>
            Open the chat button at the bottom right and ask what a guest would. It runs in test mode: nothing counts against your
            allowance, and without a model configured the answers come from the sandbox.
          </p>
          <service-concierge restaurant-id={props.restaurantId} publishable-key={key} />
        </>
      )}
    </Embed>
  );
}
