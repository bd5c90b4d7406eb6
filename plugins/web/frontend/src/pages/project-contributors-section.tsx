// A project's contributors, on its settings page: the team's contributors given their own
// level on this project (viewer, reviewer, admin). Administrators change a level, remove one,
// or add a team contributor; everyone else reads the list.
import { useEffect, useState } from "preact/hooks";
import { api, type Contributor, type Member } from "../api";
import { LevelSelect } from "../components/level-select";
import { useAction } from "../hooks/use-action";

const levels: readonly (readonly [Contributor["level"], string])[] = [
  ["viewer", "Viewer"],
  ["reviewer", "Reviewer"],
  ["admin", "Admin"],
];

export function ProjectContributorsSection({ account, project, admin }: { account: string; project: string; admin: boolean }) {
  const [contributors, setContributors] = useState<Contributor[] | null>(null);
  const [candidates, setCandidates] = useState<Member[]>([]);
  const [chosen, setChosen] = useState("");
  const [level, setLevel] = useState<Contributor["level"]>("reviewer");
  const { error, setError, run: act } = useAction(() => load());

  const load = () => api.contributors(account, project).then((page) => setContributors(page.results), (e) => setError((e as Error).message));
  useEffect(() => {
    load();
    if (admin) api.members(account, "").then((page) => setCandidates(page.results.filter((m) => m.level === "contributor")), () => undefined);
  }, [account, project, admin]);

  const listed = new Set(contributors?.map((c) => c.user.id));
  const addable = candidates.filter((member) => !listed.has(member.user.id));

  return (
    <section aria-label="Contributors">
      <h2 class="section-title">Contributors</h2>
      <p class="muted small">The team's owners and members administer every project; contributors hold the level given here.</p>
      {contributors && contributors.length === 0 && <p class="muted">No contributor has a level on this project.</p>}
      {contributors && contributors.length > 0 && (
        <table class="builds-table members-table" aria-label="Project contributors">
          <tbody>
            {contributors.map((contributor) => {
              const who = contributor.user.name ?? contributor.user.slug;
              return (
                <tr key={contributor.user.id}>
                  <td>
                    <strong>{who}</strong> <span class="muted small">@{contributor.user.slug}</span>
                  </td>
                  <td>
                    <LevelSelect label={`Level of ${who}`} value={contributor.level} options={levels} editable={admin}
                      onChange={(level) => act(() => api.setContributor(account, project, contributor.user.id, level))} />
                  </td>
                  {admin && (
                    <td class="token-actions">
                      <button type="button" class="link-button small" aria-label={`Remove ${who} from the project`}
                        onClick={() => act(() => api.removeContributor(account, project, contributor.user.id))}>
                        Remove
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {admin && addable.length > 0 && (
        <form class="token-form" onSubmit={(event) => {
          event.preventDefault();
          if (chosen) act(() => api.setContributor(account, project, chosen, level));
        }}>
          <label class="field">
            <span>Contributor</span>
            <select value={chosen} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
              <option value="">Choose…</option>
              {addable.map((member) => (
                <option key={member.user.id} value={member.user.id}>{member.user.name ?? member.user.slug}</option>
              ))}
            </select>
          </label>
          <label class="field">
            <span>Level</span>
            <select value={level} onChange={(e) => setLevel((e.target as HTMLSelectElement).value as Contributor["level"])}>
              {levels.map(([value, label]) => (
                <option key={value} value={value}>{label}</option>
              ))}
            </select>
          </label>
          <button type="submit" class="button" disabled={!chosen}>Add contributor</button>
        </form>
      )}
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
