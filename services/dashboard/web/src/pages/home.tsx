import { useLocation } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { useSession } from '../session';
import { ownerPath } from '../types';
import { Note, PageTitle } from '../ui';

/** Where a signed-in person lands: straight into their one restaurant or org, or a choice among several. */
export function HomePage() {
  const { session } = useSession();
  const location = useLocation();
  const memberships = session?.memberships ?? [];
  useEffect(() => {
    if (memberships.length === 1) location.route(ownerPath(memberships[0]!), true);
  }, [memberships.length]);
  return (
    <div class="page">
      <PageTitle>Welcome</PageTitle>
      {memberships.length === 0 ? (
        <Note>
          {session?.operator
            ? 'The admin token manages everything through the console API and CLI; sign in as a person to use the dashboard.'
            : 'You are not a member of any restaurant or integrator yet. Ask an owner to invite you.'}
        </Note>
      ) : (
        <ul class="tiles">
          {memberships.map((m) => (
            <li key={m.id}>
              <a class="card tile" href={ownerPath(m)}>
                <strong>{m.name}</strong>
                <span class="muted">
                  {m.kind === 'restaurant' ? 'Restaurant' : 'Integrator'} · {m.role}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
