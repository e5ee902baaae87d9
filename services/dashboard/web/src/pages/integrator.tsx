import { useState } from 'preact/hooks';
import type { TConnectLink } from '@partner/contracts/console';
import { get, send } from '../api';
import { useAction, useLoad } from '../hooks';
import { ownerPath } from '../types';
import { Button, CopyButton, ErrorNote, formatDate, Loading, Note, PageTitle, Section } from '../ui';
import { GrantsList } from './grants';
import type { TabProps } from '../types';

export function IntegratorOverviewTab(props: TabProps) {
  return (
    <>
      <PageTitle>Restaurants</PageTitle>
      <GrantsList {...props} />
    </>
  );
}

interface PendingLink {
  scopes: string[];
  createdAt: string;
  expiresAt: string;
}

/** Links an integrator sends restaurant owners to ask for access; each works once. */
export function ConnectLinksTab({ owner }: TabProps) {
  const base = ownerPath(owner);
  const pending = useLoad(() => get<PendingLink[]>(`${base}/connect-links`), [owner.id]);
  const [created, setCreated] = useState<TConnectLink | null>(null);
  const create = useAction(async () => {
    setCreated(await send<TConnectLink>('POST', `${base}/connect-links`, {}));
    pending.reload();
  });
  return (
    <>
      <PageTitle
        action={
          <Button variant="primary" busy={create.running} onClick={() => void create.run()}>
            New connect link
          </Button>
        }
      >
        Connect links
      </PageTitle>
      <ErrorNote error={create.error} />
      {created && (
        <Note tone="success">
          <p>Send this link to the restaurant's owner. It works once, until {formatDate(created.expiresAt)}, and is shown only now.</p>
          <div class="copy-row">
            <code class="secret break" data-testid="connect-link">
              {created.url}
            </code>
            <CopyButton value={created.url} />
          </div>
        </Note>
      )}
      <Section title="Waiting for an owner">
        <ErrorNote error={pending.error} />
        {!pending.data ? (
          <Loading />
        ) : pending.data.length === 0 ? (
          <p class="muted">No link is waiting.</p>
        ) : (
          <ul class="rows">
            {pending.data.map((link) => (
              <li class="row" key={link.createdAt}>
                <span class="small">{link.scopes.join(', ')}</span>
                <span class="muted small">
                  made {formatDate(link.createdAt)}, expires {formatDate(link.expiresAt)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
