// A project's settings (`/{account}/{project}/settings`): its settings form, contributors,
// ignored changes, repository, automation rules, tokens, transfer and deletion. Administrators
// change them; anyone else who sees the project reads the settings and the contributors (the
// form is disabled). What the caller may do comes from the server (GET
// /_loupe/projects/{owner}/{project}/permissions), which decides every change again.
import { useEffect, useState } from "preact/hooks";
import { api, type ProjectDetails, type Session } from "../api";
import { ProjectFrame } from "../components/project-tabs";
import { ProjectAutomationSection } from "./project-automation-section";
import { ProjectContributorsSection } from "./project-contributors-section";
import { ProjectDeleteSection } from "./project-delete-section";
import { ProjectGeneralSection } from "./project-general-section";
import { ProjectIgnoredChangesSection } from "./project-ignored-changes-section";
import { ProjectRepositorySection } from "./project-repository-section";
import { ProjectTokensSection } from "./project-tokens-section";
import { ProjectTransferSection } from "./project-transfer-section";

interface Props {
  session: Session;
  account: string;
  project: string;
}

export function ProjectSettingsPage({ session, account, project }: Props) {
  const [details, setDetails] = useState<ProjectDetails | null>(null);
  const [permissions, setPermissions] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.projectSettings(account, project).then(setDetails, (e) => setError((e as Error).message));
    api.projectPermissions(account, project).then(setPermissions, () => setPermissions([]));
  }, [account, project]);
  const admin = permissions.includes("admin");

  return (
    <ProjectFrame session={session} account={account} project={project} section="settings" head={null} error={error}>
      <div class="page-narrow">
        {details && !admin && <p class="callout">Only the project's administrators change its settings.</p>}
        {details && <ProjectGeneralSection project={details} admin={admin} onSaved={setDetails} />}
        {details && <ProjectContributorsSection account={account} project={project} admin={admin} />}
        {details && session.plugins.includes("builds") && (
          <ProjectIgnoredChangesSection account={account} project={project} canReview={permissions.includes("review")} />
        )}
        {details && session.plugins.includes("git") && <ProjectRepositorySection account={account} project={project} admin={admin} />}
        {admin && session.plugins.includes("automation") && <ProjectAutomationSection account={account} project={project} />}
        <ProjectTokensSection account={account} project={project} admin={admin} />
        {admin && <ProjectTransferSection account={account} project={project} accounts={session.accounts ?? []} />}
        {admin && <ProjectDeleteSection account={account} project={project} />}
      </div>
    </ProjectFrame>
  );
}
