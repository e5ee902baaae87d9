import { useState } from 'preact/hooks';
import type { TMember } from '@partner/contracts/console';
import { call, get, send } from '../api';
import { useAction, useLoad } from '../hooks';
import { useSession } from '../session';
import { ownerPath } from '../types';
import { Badge, Button, ErrorNote, Field, formatDate, Loading, Note, PageTitle, Section } from '../ui';
import type { TabProps } from '../types';

/** Who manages this restaurant or org; owners invite by e-mail and remove. */
export function TeamTab({ owner }: TabProps) {
  const base = ownerPath(owner);
  const { session } = useSession();
  const members = useLoad(() => get<TMember[]>(`${base}/members`), [owner.id]);
  const isOwner = owner.role === 'owner';
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'member' | 'owner'>('member');
  const [invited, setInvited] = useState<{ email: string; linkSent: boolean } | null>(null);
  const invite = useAction(async () => {
    const answer = await call<unknown>('POST', `${base}/members`, { email, role });
    setInvited({ email, linkSent: answer.meta?.linkSent === true });
    setEmail('');
    members.reload();
  });
  const remove = useAction(async (member: TMember) => {
    if (!confirm(`Remove ${member.email}? They lose access at once.`)) return;
    await send('DELETE', `${base}/members/${member.accountId}`);
    members.reload();
  });
  return (
    <>
      <PageTitle>Team</PageTitle>
      <Section title="Members">
        <ErrorNote error={members.error ?? remove.error} />
        {!members.data ? (
          <Loading />
        ) : (
          <ul class="rows">
            {members.data.map((member) => (
              <li class="row" key={member.accountId}>
                <div>
                  {member.name ?? member.email}
                  <div class="muted small">
                    {member.email} · since {formatDate(member.since)}
                  </div>
                </div>
                <Badge tone={member.role === 'owner' ? 'good' : 'neutral'}>{member.role}</Badge>
                {isOwner && member.accountId !== session?.account?.id && (
                  <Button
                    variant="danger"
                    busy={remove.running}
                    onClick={() => void remove.run(member)}
                    aria-label={`Remove ${member.email}`}
                  >
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>
      {isOwner && (
        <Section title="Invite someone">
          <form
            class="stack"
            onSubmit={(event) => {
              event.preventDefault();
              void invite.run();
            }}
          >
            <Field label="E-mail address">
              <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </Field>
            <Field label="Role" hint="Owners also manage the team and approve integrators.">
              <select value={role} onChange={(e) => setRole(e.currentTarget.value as 'member' | 'owner')}>
                <option value="member">Member</option>
                <option value="owner">Owner</option>
              </select>
            </Field>
            <ErrorNote error={invite.error} />
            {invited && (
              <Note tone="success">
                {invited.email} was added
                {invited.linkSent
                  ? ' and sent a sign-in link.'
                  : '. No e-mail is configured on this platform, so no sign-in link was sent: ask its operator to let them in.'}
              </Note>
            )}
            <div class="actions">
              <Button type="submit" variant="primary" busy={invite.running}>
                Invite
              </Button>
            </div>
          </form>
        </Section>
      )}
    </>
  );
}
