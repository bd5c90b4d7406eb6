// A team's members on its settings page: everyone with their role; the team's administrators
// change a role or remove someone (after a confirmation naming them). The server refuses what
// would leave the team without an owner, and the page shows its message.
import { useEffect, useState } from "preact/hooks";
import { api, type Member, type TeamRole } from "../api";
import { ConfirmButton } from "../components/confirm-button";
import { LevelSelect } from "../components/level-select";
import { useAction } from "../hooks/use-action";

const roles = [
  ["owner", "Owner"],
  ["member", "Member"],
  ["contributor", "Contributor"],
] as const satisfies readonly (readonly [TeamRole, string])[];

interface Props {
  account: string;
  admin: boolean;
  /** Called after a change, so the page reloads what depends on the members (the trail). */
  onChange: () => void;
}

export function TeamMembersSection({ account, admin, onChange }: Props) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [total, setTotal] = useState(0);
  const [search, setSearch] = useState("");
  const { error, setError, status: saved, run } = useAction(() => load());

  const load = () =>
    api.members(account, search.trim()).then(
      (page) => {
        setMembers(page.results);
        setTotal(page.pageInfo.total);
      },
      (e) => setError((e as Error).message),
    );
  useEffect(() => {
    load();
  }, [account, search]);

  const act = async (action: () => Promise<unknown>, done: string) => {
    const succeeded = await run(action, done);
    if (succeeded) onChange();
    return succeeded;
  };

  return (
    <section aria-label="Members">
      <div class="section-head">
        <h2 class="section-title">Members</h2>
        <input type="search" class="search-input" placeholder="Search members" aria-label="Search members" value={search}
          onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
      </div>
      {!admin && <p class="muted small">Only the team's owners change roles and remove members.</p>}
      {members && members.length === 0 && <p class="muted">No member matches.</p>}
      {members && members.length > 0 && (
        <table class="builds-table members-table" aria-label="Team members">
          <thead>
            <tr>
              <th>Person</th>
              <th>Role</th>
              {admin && <th />}
            </tr>
          </thead>
          <tbody>
            {members.map((member) => {
              const who = member.user.name ?? member.user.slug;
              return (
                <tr key={member.user.id}>
                  <td>
                    <strong>{who}</strong> <span class="muted small">@{member.user.slug}</span>
                  </td>
                  <td>
                    <LevelSelect label={`Role of ${who}`} value={member.level} options={roles} editable={admin}
                      onChange={(level) => act(() => api.setMemberLevel(account, member.user.id, level), `${who} is now ${level}.`)} />
                  </td>
                  {admin && (
                    <td class="token-actions">
                      <ConfirmButton label="Remove" ariaLabel={`Remove ${who}`} confirmLabel={`Remove ${who}`}
                        onConfirm={() => act(() => api.removeMember(account, member.user.id), `${who} left the team.`)} />
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {members && total > members.length && <p class="muted small">The first {members.length} of {total}: search to find the others.</p>}
      <p class="muted small" role="status" aria-live="polite">{saved ?? ""}</p>
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
