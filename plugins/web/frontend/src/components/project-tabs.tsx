import type { ComponentChildren } from "preact";
import type { Session } from "../api";
import { paths } from "../router";

export type ProjectSection = "builds" | "tests" | "media" | "deployments" | "activity" | "settings";

/**
 * The sections of a project. Tests (builds plugin) lists what the screenshots test, flakiest
 * first. Media lists the images and videos shared for review. Media, Deployments and Activity
 * appear only when their plugin is enabled
 * on this server (the session lists the enabled plugins); Settings always (its page tells
 * someone who is not an administrator that only administrators manage tokens).
 */
export function ProjectTabs({ session, account, project, current }: { session: Session; account: string; project: string; current: ProjectSection }) {
  const tabs: { id: ProjectSection; label: string; href: string }[] = [{ id: "builds", label: "Builds", href: paths.project(account, project) }];
  if (session.plugins.includes("builds")) tabs.push({ id: "tests", label: "Tests", href: paths.tests(account, project) });
  if (session.plugins.includes("media")) tabs.push({ id: "media", label: "Media", href: paths.media(account, project) });
  if (session.plugins.includes("deployments"))
    tabs.push({ id: "deployments", label: "Deployments", href: paths.deployments(account, project) });
  if (session.plugins.includes("analytics")) tabs.push({ id: "activity", label: "Activity", href: paths.activity(account, project) });
  tabs.push({ id: "settings", label: "Settings", href: paths.projectSettings(account, project) });
  return (
    <nav class="section-tabs" aria-label="Project sections">
      {tabs.map((tab) => (
        <a key={tab.id} href={tab.href} aria-current={tab.id === current ? "page" : undefined}>
          {tab.label}
        </a>
      ))}
    </nav>
  );
}

interface FrameProps {
  session: Session;
  account: string;
  project: string;
  section: ProjectSection;
  /** Controls at the right of the title (filters, a period). */
  head: ComponentChildren;
  error?: string | null;
  children: ComponentChildren;
}

/** A project's page: its name, the section's controls, the sections' tabs, then the section. */
export function ProjectFrame({ session, account, project, section, head, error, children }: FrameProps) {
  return (
    <div class="page">
      <div class="page-head project-head">
        <h1 class="page-title">{project}</h1>
        {head}
      </div>
      <ProjectTabs session={session} account={account} project={project} current={section} />
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      {children}
    </div>
  );
}
