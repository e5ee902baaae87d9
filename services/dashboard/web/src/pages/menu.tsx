import { useState } from 'preact/hooks';
import type { TItem, TSection } from '@partner/contracts';
import { call, get, send } from '../api';
import { Embed } from '../embeds';
import { useAction, useLoad } from '../hooks';
import { ownerPath } from '../types';
import { Badge, Button, CardForm, ErrorNote, Field, Loading, Note, PageTitle, Section, TableScroll } from '../ui';
import type { TabProps } from '../types';

const STATUSES = ['draft', 'published', 'archived'] as const;

/** Sections and dishes in every state; a dish's status, price and 3D model. */
export function MenuTab({ owner }: TabProps) {
  const base = ownerPath(owner);
  const menu = useLoad(async () => {
    const [sections, items] = await Promise.all([get<TSection[]>(`${base}/sections`), call<TItem[]>('GET', `${base}/items?limit=500`)]);
    return { sections, items: items.data, more: Boolean(items.meta?.nextAfter) };
  }, [owner.id]);
  const [adding, setAdding] = useState(false);
  const [uploading, setUploading] = useState<TItem | null>(null);
  const [previewing, setPreviewing] = useState<TItem | null>(null);
  const update = useAction(async (item: TItem, changes: Record<string, unknown>) => {
    await send('PATCH', `/items/${item.id}`, changes);
    menu.reload();
  });
  if (!menu.data) return menu.error ? <ErrorNote error={menu.error} /> : <Loading />;
  const sectionName = (id: string | null) => menu.data!.sections.find((s) => s.id === id)?.name ?? '—';
  return (
    <>
      <PageTitle
        action={
          !adding && (
            <Button variant="primary" onClick={() => setAdding(true)}>
              New dish
            </Button>
          )
        }
      >
        Menu
      </PageTitle>
      {adding && (
        <NewItemForm
          base={base}
          sections={menu.data.sections}
          onDone={() => {
            setAdding(false);
            menu.reload();
          }}
        />
      )}
      {uploading && (
        <ModelUpload
          item={uploading}
          onDone={() => {
            setUploading(null);
            menu.reload();
          }}
        />
      )}
      {previewing && <ModelPreview item={previewing} restaurantId={owner.id} onClose={() => setPreviewing(null)} />}
      <Section title="Dishes">
        <ErrorNote error={update.error} />
        {menu.data.items.length === 0 ? (
          <p class="muted">No dishes yet.</p>
        ) : (
          <TableScroll label="Dishes">
            <table>
              <thead>
                <tr>
                  <th scope="col">Dish</th>
                  <th scope="col">Section</th>
                  <th scope="col">Price</th>
                  <th scope="col">Status</th>
                  <th scope="col">3D model</th>
                </tr>
              </thead>
              <tbody>
                {menu.data.items.map((item) => (
                  <tr key={item.id}>
                    <td>
                      {item.name}
                      {item.description && <div class="muted small">{item.description}</div>}
                    </td>
                    <td class="small">{sectionName(item.sectionId)}</td>
                    <td class="small">
                      {(item.priceCents / 100).toFixed(2)} {item.currency}
                    </td>
                    <td>
                      <select
                        aria-label={`Status of ${item.name}`}
                        value={item.status}
                        onChange={(e) => void update.run(item, { status: e.currentTarget.value })}
                      >
                        {STATUSES.map((status) => (
                          <option key={status} value={status}>
                            {status}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      <Badge tone={item.model.status === 'ready' ? 'good' : item.model.status === 'failed' ? 'bad' : 'neutral'}>
                        {item.model.status}
                      </Badge>{' '}
                      <Button onClick={() => setUploading(item)} aria-label={`Upload a 3D model for ${item.name}`}>
                        Upload
                      </Button>
                      {item.model.status === 'ready' && item.status === 'published' && (
                        <Button onClick={() => setPreviewing(item)} aria-label={`Preview ${item.name} in 3D`}>
                          Preview
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {menu.data.more && <p class="muted small">The first 500 dishes are shown.</p>}
      </Section>
    </>
  );
}

function NewItemForm(props: { base: string; sections: TSection[]; onDone: () => void }) {
  const [form, setForm] = useState({ name: '', price: '', description: '', sectionId: '', status: 'draft' });
  const create = useAction(() =>
    send('POST', `${props.base}/items`, {
      name: form.name,
      priceCents: Math.round(Number(form.price) * 100),
      description: form.description || undefined,
      sectionId: form.sectionId || undefined,
      status: form.status,
    }),
  );
  return (
    <CardForm title="New dish" onSubmit={() => void create.run().then((item) => item && props.onDone())}>
      <Field label="Name">
        <input required maxLength={200} value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
      </Field>
      <Field label="Price">
        <input
          required
          type="number"
          min="0"
          step="0.01"
          inputMode="decimal"
          value={form.price}
          onInput={(e) => setForm({ ...form, price: e.currentTarget.value })}
        />
      </Field>
      <Field label="Description">
        <textarea rows={2} value={form.description} onInput={(e) => setForm({ ...form, description: e.currentTarget.value })} />
      </Field>
      <Field label="Section">
        <select value={form.sectionId} onChange={(e) => setForm({ ...form, sectionId: e.currentTarget.value })}>
          <option value="">None</option>
          {props.sections.map((section) => (
            <option key={section.id} value={section.id}>
              {section.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Status">
        <select value={form.status} onChange={(e) => setForm({ ...form, status: e.currentTarget.value })}>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </Field>
      <ErrorNote error={create.error} />
      <div class="actions">
        <Button type="submit" variant="primary" busy={create.running}>
          Add dish
        </Button>
        <Button onClick={props.onDone}>Cancel</Button>
      </div>
    </CardForm>
  );
}

/** The three files of a model; console's validator answers with what is wrong, if anything. */
function ModelUpload(props: { item: TItem; onDone: () => void }) {
  const upload = useAction((form: HTMLFormElement) => send('PUT', `/items/${props.item.id}/model`, new FormData(form)));
  const [done, setDone] = useState(false);
  return (
    <CardForm title={`3D model of ${props.item.name}`} onSubmit={(form) => void upload.run(form).then((item) => item && setDone(true))}>
      <Field label="GLB (Android, web)">
        <input type="file" name="glb" accept=".glb,model/gltf-binary" required />
      </Field>
      <Field label="USDZ (iPhone, iPad)">
        <input type="file" name="usdz" accept=".usdz,model/vnd.usdz+zip" required />
      </Field>
      <Field label="Thumbnail (PNG or JPEG)">
        <input type="file" name="thumbnail" accept="image/png,image/jpeg" required />
      </Field>
      {upload.error && (
        <div class="note error" role="alert">
          <strong>The validator refused the model.</strong> {upload.error.message}
        </div>
      )}
      {done && <Note tone="success">The model passed every check and is live.</Note>}
      <div class="actions">
        {!done && (
          <Button type="submit" variant="primary" busy={upload.running}>
            Upload and check
          </Button>
        )}
        <Button onClick={props.onDone}>{done ? 'Close' : 'Cancel'}</Button>
      </div>
    </CardForm>
  );
}

/** The dish as guests see it: the project's own viewer, live, with the dashboard's test key. */
function ModelPreview(props: { item: TItem; restaurantId: string; onClose: () => void }) {
  return (
    <section class="card stack" aria-label={`3D preview of ${props.item.name}`}>
      <div class="card-head">
        <h2>{props.item.name} in 3D</h2>
        <Button onClick={props.onClose}>Close</Button>
      </div>
      <Embed restaurantId={props.restaurantId} file="v1.js" what="viewer">
        {(key) => <service-viewer class="preview" item-id={props.item.id} publishable-key={key} />}
      </Embed>
    </section>
  );
}
