// The page talks to Loupe's public API (/v2/...) with the session cookie, plus the web plugin's
// own endpoints under /_loupe/. Every write carries the session's CSRF token.

export interface UserRef {
  id: string;
  slug: string;
  name: string | null;
}

/** An identity provider the sso plugin signs people in with. */
export interface SignInProvider {
  id: string;
  name: string;
  startUrl: string;
}

/** An application asking, through `argos login`, to act for the signed-in person. */
export interface OAuthRequest {
  client: { id: string; name: string };
  scopes: { name: string; description: string }[];
  redirectUri: string;
  user: UserRef;
}

export interface InvitePreview {
  team: { slug: string; name: string };
  level: string;
  email: string | null;
  expired: boolean;
}

/** The signed-in person's kinds of notification mail. */
export interface NotificationSettings {
  mailConfigured: boolean;
  email: string | null;
  enabled: boolean;
  mentions: boolean;
  threadReplies: boolean;
  reviewRequests: boolean;
  buildReviews: boolean;
  buildStatuses: boolean;
  testComments: boolean;
}

/** A project token as its administrators see it (never its secret). */
export interface ProjectToken {
  id: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A project token just made: its secret is in this answer only. */
export interface NewProjectToken extends ProjectToken {
  token: string;
}

/** An application the signed-in person approved with `argos login`. */
export interface OAuthGrant {
  id: string;
  client: { id: string; name: string };
  scopes: string[];
  createdAt: string;
  lastUsedAt: string;
}

/** A browser session of the signed-in person. */
export interface BrowserSession {
  id: string;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  current: boolean;
}

/** One of the signed-in person's personal access tokens (never its secret). */
export interface PersonalToken {
  id: string;
  name: string;
  prefix: string;
  accounts: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** A token just made: its secret is in this answer only. */
export interface NewPersonalToken extends PersonalToken {
  token: string;
}

/** An account as GET /v2/accounts/{slug} answers: usage this period, the default role. */
export interface AccountDetails {
  id: string;
  slug: string;
  name: string | null;
  type: "team" | "user";
  defaultUserLevel: "member" | "contributor" | null;
  periodStartDate: string;
  periodEndDate: string;
  currentPeriodScreenshots: number;
  currentPeriodBuilds: number;
}

/**
 * A project with its settings, as GET /v2/projects/{owner}/{project} answers; each plugin adds
 * its own fields, so a field is present only when its plugin is enabled.
 */
export interface ProjectDetails extends Project {
  private?: boolean;
  defaultUserLevel?: "admin" | "reviewer" | "viewer" | null;
  autoApprovedBranchGlob?: string;
  ignoreConfig?: { enabled: boolean; autoIgnore: { changes: number } | null };
  retentionDays?: number | null;
  summaryCheck?: "auto" | "always" | "never";
  prCommentEnabled?: boolean;
  mergedPullRequestApproval?: boolean;
  tokenlessAuthEnabled?: boolean;
  githubActionsOidcEnabled?: boolean;
  gitlabCiOidcEnabled?: boolean;
  deploymentEnabled?: boolean;
  deploymentAuth?: "project" | "public" | "private" | "domain-private";
  deploymentProductionBranchGlob?: string;
  [field: string]: unknown;
}

/** A person given a level on a project (`user.id` names them in the contributor routes). */
export interface Contributor {
  id: string;
  user: UserRef;
  level: "admin" | "reviewer" | "viewer";
}

/** A change reviewers chose to ignore: its id and the test it belongs to. */
export interface IgnoredChange {
  id: string;
  test: { id: string; name: string; buildName: string | null };
}

/** An automation rule as the Argos API shows it. */
export interface AutomationRule {
  id: string;
  name: string;
  active: boolean;
  events: string[];
  conditions: unknown[];
  actions: { action: string; actionPayload: Record<string, unknown> }[];
  createdAt: string;
  updatedAt: string;
}

/** One firing of a rule (event `test` when sent from the page), each action's outcome. */
export interface AutomationRun {
  id: string;
  event: string;
  buildNumber: number;
  createdAt: string;
  actions: { action: string; status: "pending" | "success" | "failed"; attempts: number; responseStatus: number | null; error: string | null }[];
}

/** The repository a project is linked to (the git plugin). */
export interface RepositoryLink {
  provider: "github" | "gitlab";
  repository: string;
  installationId?: string;
  ownToken: boolean;
}

/** A build waiting for the caller's review (GET /_loupe/reviews/waiting). */
export interface WaitingBuild {
  project: { account: string; name: string };
  build: Build;
  requestedAt: string;
  requestedBy: UserRef | null;
}

export type TeamRole = "owner" | "member" | "contributor";

/** A team member; `user.id` names them in the member routes. */
export interface Member {
  id: string;
  level: TeamRole;
  user: UserRef;
}

/** A pending invite; `inviteLink` only in the answer that made it (the server keeps a hash). */
export interface TeamInvite {
  id: string;
  email: string;
  level: TeamRole;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
  inviteLink?: string;
}

/** A chat service a team registered for its automation rules (its secret is never answered). */
export interface ChatTarget {
  kind: "slack" | "teams" | "discord";
  name: string;
  /** The secret's last characters. */
  hint: string;
  updatedAt: string;
}

export interface ChatTargets {
  targets: ChatTarget[];
  /** The operator's, by name only. */
  server: { slack: boolean; teams: string[]; discord: string[] };
}

export interface TeamDomain {
  domain: string;
  createdAt: string;
}

/** One change in a team's administration trail (GET /_loupe/accounts/{slug}/audit). */
export interface AuditEntry {
  id: string;
  action: string;
  actor: UserRef | null;
  subject: UserRef | null;
  before: string | null;
  after: string | null;
  createdAt: string;
}

export interface Session {
  user: UserRef | null;
  accounts?: string[];
  csrfToken?: string;
  plugins: string[];
  publicUrl: string;
  /** Where a Playwright trace opens (`?trace=<url>` appended). */
  traceViewerUrl?: string;
}

export interface Project {
  id: string;
  account: { id: string; slug: string };
  name: string;
  defaultBaseBranch: string;
}

export interface BuildStats {
  added: number;
  removed: number;
  unchanged: number;
  changed: number;
  ignored: number;
  failure: number;
  retryFailure: number;
  total: number;
}

export interface Build {
  id: string;
  number: number;
  name: string;
  head: { sha: string; branch: string };
  base: { sha: string; branch: string } | null;
  status: string;
  conclusion: string | null;
  stats: BuildStats | null;
  metadata: { testReport?: { status?: string; stats?: { startTime?: string; duration?: number } } } | null;
  url: string;
  baselineBuild?: { id: string | null; number: number | null; commit: string | null; branch: string | null; reason: string; approval?: string | null } | null;
}

export interface Snapshot {
  id: string;
  name: string;
  width: number | null;
  height: number | null;
  url: string;
  contentType: string;
  metadata: Record<string, unknown> | null;
  /** The Playwright trace recorded with it (a signed URL), if any. */
  pwTraceUrl?: string | null;
}

export interface TestMetrics {
  total: number;
  changes: number;
  uniqueChanges: number;
  stability: number;
  consistency: number;
  flakiness: number;
}

export interface Diff {
  id: string;
  name: string;
  status: string;
  score: number | null;
  group: string | null;
  parentName: string | null;
  url: string | null;
  base: Snapshot | null;
  head: Snapshot | null;
  test: { id: string; name: string; buildName: string; metrics: TestMetrics } | null;
  change: { id: string; ignored: boolean; occurrences: number } | null;
}

/** A test with its metrics over the period (the Tests tab). */
export interface TestSummary {
  id: string;
  name: string;
  buildName: string;
  metrics: TestMetrics;
}

/** When a change was seen: the build and the mask of that occurrence. */
export interface ChangeOccurrence {
  date: string;
  url: string | null;
  buildNumber: number;
  buildUrl: string;
}

/** The test page's head: the test, its metrics and their series, its first and last change. */
export interface TestDetails extends TestSummary {
  status: "ongoing" | "removed";
  createdAt: string;
  series: { ts: number; total: number; changes: number; uniqueChanges: number }[];
  firstSeenChange: ChangeOccurrence | null;
  lastSeenChange: ChangeOccurrence | null;
}

/** One distinct change of a test over the period. */
export interface TestChange {
  id: string;
  ignored: boolean;
  occurrences: number;
  firstSeen: ChangeOccurrence;
  lastSeen: ChangeOccurrence;
  diff: Diff;
}

/** A mask drawn on a test: a rectangle of its screenshot (pixels) later diffs do not count. */
export interface TestMask {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  branch: string | null;
  note: string;
  createdAt: string;
  createdBy: UserRef | null;
  removedAt: string | null;
  removedBy: UserRef | null;
}

/** One build's diff of a test, for the test page's history. */
export interface TestHistoryEntry {
  build: {
    number: number;
    name: string;
    branch: string;
    commit: string;
    createdAt: string;
    conclusion: string | null;
    reviewState: string | null;
  };
  baseBuildNumber: number | null;
  diff: Diff;
}

export interface Page<T> {
  pageInfo: { total: number; page: number; perPage: number };
  results: T[];
}

export interface Review {
  id: string;
  buildId: string;
  state: string;
  user: UserRef | null;
  dismissedAt: string | null;
  dismissedBy: UserRef | null;
  date: string;
  /** An approval carried forward from an earlier build. */
  automatic?: boolean;
}

export interface Reaction {
  emoji: string;
  count: number;
  users: UserRef[];
}

export interface Comment {
  id: string;
  /** The build it is posted on, or null on a test's comment. */
  buildId: string | null;
  /** The test it is posted on, or null on a build's comment. */
  testId: string | null;
  threadId: string | null;
  text: string;
  author: UserRef | null;
  screenshotDiffId: string | null;
  /** A point in fractions of the picture; `time`: on a media's video, the moment in seconds. */
  anchor: { type: string; x?: number; y?: number; time?: number } | null;
  /** The media it is posted on (a pin records the version its author saw), else null. */
  mediaId?: string | null;
  mediaVersionId?: string | null;
  pending: boolean;
  resolvedAt: string | null;
  editedAt: string | null;
  createdAt: string;
  reactions: Reaction[];
}

export interface LiveState {
  status: string;
  conclusion: string | null;
  reviewState: string | null;
  diffs: { total: number; pending: number; done: number };
  version: string;
}

export interface DeploymentAlias {
  name: string;
  type: "branch" | "production";
  url: string;
}

export interface Deployment {
  id: string;
  status: "pending" | "ready" | "error";
  environment: "preview" | "production";
  branch: string;
  commitSha: string;
  prNumber: number | null;
  url: string;
  createdAt: string;
  aliases: DeploymentAlias[];
}

export interface AnalyticsSeries<Point> {
  series: (Point & { ts: number; total: number; projects: Record<string, number> })[];
  all: Point & { total: number; projects: Record<string, number> };
  projects: { id: string; name: string }[];
}

export interface BuildCounts {
  changesDetected: number;
  noChanges: number;
  accepted: number;
  rejected: number;
}

export interface Analytics {
  screenshots: AnalyticsSeries<object>;
  builds: AnalyticsSeries<BuildCounts>;
}

export interface FlakyTests {
  period: string;
  from: string;
  tests: { id: string; name: string; buildName: string; metrics: TestMetrics }[];
}

/** A standalone image or video (the media plugin), described at one version. */
export interface Media {
  id: string;
  name: string;
  state: "before" | "after" | null;
  description: string | null;
  stage: "staged" | "published";
  branch: string | null;
  prNumber: number | null;
  url: string;
  markdown: string;
  version: number;
  versionCount: number;
  fileUrl: string;
  posterUrl: string | null;
  contentType: string;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  visibility: "team" | "public";
  status: "pending" | "ready";
  expiresAt: string | null;
  createdAt: string;
}

export interface MediaVersion {
  id: string;
  number: number;
  fileUrl: string;
  posterUrl: string | null;
  contentType: string;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  createdAt: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = "";
let onUnauthorized: () => void = () => {};

export function setCsrfToken(token: string) {
  csrfToken = token;
}

/** Called when the API answers 401: the session ended. */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

async function errorOf(response: Response): Promise<ApiError> {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body && typeof body.error === "string") {
      message = body.error;
      if (Array.isArray(body.details) && body.details.length)
        message += `: ${body.details.map((d: { message: string }) => d.message).join(", ")}`;
    }
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, message);
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && method !== "HEAD" && csrfToken) headers["X-CSRF-Token"] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && !path.startsWith("/_loupe/session")) onUnauthorized();
    throw error;
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

const enc = encodeURIComponent;

export function projectPath(owner: string, project: string) {
  return `/v2/projects/${enc(owner)}/${enc(project)}`;
}

export function buildPath(owner: string, project: string, number: number) {
  return `${projectPath(owner, project)}/builds/${number}`;
}

/** A media's comment endpoints (commentsAt). */
export function mediaPath(mediaId: string) {
  return `/v2/media/${enc(mediaId)}`;
}

export function testPath(owner: string, project: string, testId: string) {
  return `${projectPath(owner, project)}/tests/${enc(testId)}`;
}

/** What a new comment carries: its body, the thread it answers, where it is pinned on a diff. */
export interface NewCommentBody {
  body: string;
  threadId?: string;
  screenshotDiffId?: string;
  anchor?: { type: "point"; x: number; y: number; time?: number };
}

/** The comment endpoints of a place: a build (buildPath) or a test (testPath). */
export function commentsAt(place: string) {
  const at = (id: string) => `${place}/comments/${enc(id)}`;
  return {
    list: () => request<Comment[]>("GET", `${place}/comments`),
    create: (body: NewCommentBody) => request<Comment>("POST", `${place}/comments`, { body }),
    edit: (id: string, body: string) => request<Comment>("PATCH", at(id), { body: { body } }),
    resolve: (id: string, resolved: boolean) => request<Comment>("POST", `${at(id)}/${resolved ? "resolve" : "unresolve"}`),
    react: (id: string, emoji: string, add: boolean) =>
      add
        ? request<Comment>("POST", `${at(id)}/reactions`, { body: { emoji } })
        : request<Comment>("DELETE", `${at(id)}/reactions?emoji=${enc(emoji)}`),
  };
}

export const api = {
  session: () => request<Session>("GET", "/_loupe/session"),
  signInWithToken: (token: string) =>
    request<Session>("POST", "/_loupe/session", { headers: { Authorization: `Bearer ${token}` } }),
  signInWithLink: (token: string) => request<Session>("POST", "/_loupe/session/link", { body: { token } }),
  signOut: () => request<void>("DELETE", "/_loupe/session"),
  oauthRequest: (query: URLSearchParams) => request<OAuthRequest>("GET", `/_loupe/oauth/request?${query}`),
  oauthDecision: (query: URLSearchParams, approve: boolean) =>
    request<{ redirectUrl: string }>("POST", "/_loupe/oauth/decision", {
      body: { ...Object.fromEntries(query), approve },
    }),
  /** What the caller may do on the project: view, view_settings, review, review_dismiss, admin. */
  accountPermissions: (account: string) =>
    request<{ permissions: string[] }>("GET", `/_loupe/accounts/${enc(account)}/permissions`).then((answer) => answer.permissions),
  projectPermissions: (owner: string, project: string) =>
    request<{ permissions: string[] }>("GET", `/_loupe/projects/${enc(owner)}/${enc(project)}/permissions`).then((answer) => answer.permissions),
  projectTokens: (owner: string, project: string) =>
    request<{ tokens: ProjectToken[] }>("GET", `/_loupe/projects/${enc(owner)}/${enc(project)}/tokens`).then((answer) => answer.tokens),
  createProjectToken: (owner: string, project: string) =>
    request<NewProjectToken>("POST", `/_loupe/projects/${enc(owner)}/${enc(project)}/tokens`),
  revokeProjectToken: (owner: string, project: string, id: string) =>
    request<{ id: string; revoked: boolean }>("DELETE", `/_loupe/projects/${enc(owner)}/${enc(project)}/tokens/${enc(id)}`),
  oauthGrants: () => request<{ grants: OAuthGrant[] }>("GET", "/_loupe/oauth/grants").then((answer) => answer.grants),
  revokeOAuthGrant: (id: string) => request<{ id: string; revoked: boolean }>("DELETE", `/_loupe/oauth/grants/${enc(id)}`),
  ownSessions: () => request<{ sessions: BrowserSession[] }>("GET", "/_loupe/sessions").then((answer) => answer.sessions),
  signOutSession: (id: string) => request<{ id: string; signedOut: boolean }>("DELETE", `/_loupe/sessions/${enc(id)}`),
  signOutOtherSessions: () =>
    request<{ signedOut: number }>("POST", "/_loupe/sessions/sign-out-others").then((answer) => answer.signedOut),
  personalTokens: () => request<{ tokens: PersonalToken[] }>("GET", "/_loupe/tokens").then((answer) => answer.tokens),
  createPersonalToken: (body: { name: string; accounts: string[]; expiresInDays: number | null }) =>
    request<NewPersonalToken>("POST", "/_loupe/tokens", { body }),
  revokePersonalToken: (id: string) => request<{ id: string; revoked: boolean }>("DELETE", `/_loupe/tokens/${enc(id)}`),
  notificationSettings: () => request<NotificationSettings>("GET", "/_loupe/notifications/settings"),
  updateNotificationSettings: (changes: Partial<NotificationSettings>) =>
    request<NotificationSettings>("PATCH", "/_loupe/notifications/settings", { body: changes }),
  invite: (token: string) => request<InvitePreview>("GET", `/_loupe/invites/${enc(token)}`),
  acceptInvite: (token: string) =>
    request<{ team: { slug: string }; level: string }>("POST", `/_loupe/invites/${enc(token)}/accept`),
  signInProviders: () => request<{ providers: SignInProvider[] }>("GET", "/_loupe/sso/providers"),

  account: (account: string) => request<AccountDetails>("GET", `/v2/accounts/${enc(account)}`),
  updateAccount: (account: string, changes: { defaultUserLevel: "member" | "contributor" }) =>
    request<AccountDetails>("PATCH", `/v2/accounts/${enc(account)}`, { body: changes }),
  members: (account: string, search: string) =>
    request<Page<Member>>("GET", `/v2/accounts/${enc(account)}/members?${new URLSearchParams({ perPage: "100", search })}`),
  setMemberLevel: (account: string, userId: string, level: TeamRole) =>
    request<Member>("PATCH", `/v2/accounts/${enc(account)}/members/${enc(userId)}`, { body: { level } }),
  removeMember: (account: string, userId: string) => request<void>("DELETE", `/v2/accounts/${enc(account)}/members/${enc(userId)}`),
  invites: (account: string) => request<Page<TeamInvite>>("GET", `/v2/accounts/${enc(account)}/invites?perPage=100`),
  invitePeople: (account: string, members: { email: string; level: TeamRole }[]) =>
    request<TeamInvite[]>("POST", `/v2/accounts/${enc(account)}/invites`, { body: { members } }),
  cancelInvite: (account: string, id: string) => request<void>("DELETE", `/v2/accounts/${enc(account)}/invites/${enc(id)}`),
  resetInviteLink: (account: string) =>
    request<{ inviteLink: string }>("POST", `/v2/accounts/${enc(account)}/invite-link/reset`).then((answer) => answer.inviteLink),
  domains: (account: string) => request<TeamDomain[]>("GET", `/v2/accounts/${enc(account)}/domains`),
  addDomain: (account: string, domain: string) =>
    request<TeamDomain>("POST", `/v2/accounts/${enc(account)}/domains`, { body: { domain } }),
  removeDomain: (account: string, domain: string) =>
    request<void>("DELETE", `/v2/accounts/${enc(account)}/domains/${enc(domain)}`),
  chatTargets: (account: string) => request<ChatTargets>("GET", `/_loupe/accounts/${enc(account)}/chat-targets`),
  saveChatTarget: (account: string, kind: string, name: string, secret: string) =>
    request<ChatTarget>("PUT", `/_loupe/accounts/${enc(account)}/chat-targets/${enc(kind)}/${enc(name)}`, { body: { secret } }),
  deleteChatTarget: (account: string, kind: string, name: string) =>
    request<void>("DELETE", `/_loupe/accounts/${enc(account)}/chat-targets/${enc(kind)}/${enc(name)}`),
  accountAudit: (account: string) =>
    request<Page<AuditEntry>>("GET", `/_loupe/accounts/${enc(account)}/audit?perPage=20`),
  accountProjects: (account: string) =>
    request<Page<Project>>("GET", `/v2/accounts/${enc(account)}/projects?perPage=100`),
  project: (owner: string, project: string) => request<Project>("GET", projectPath(owner, project)),
  projectSettings: (owner: string, project: string) => request<ProjectDetails>("GET", projectPath(owner, project)),
  updateProject: (owner: string, project: string, changes: Record<string, unknown>) =>
    request<ProjectDetails>("PATCH", projectPath(owner, project), { body: changes }),
  automationRules: (owner: string, project: string) =>
    request<Page<AutomationRule>>("GET", `${projectPath(owner, project)}/automation-rules?perPage=100`),
  createAutomationRule: (owner: string, project: string, definition: unknown) =>
    request<AutomationRule & { webhookSecret?: string }>("POST", `${projectPath(owner, project)}/automation-rules`, { body: definition }),
  deactivateAutomationRule: (owner: string, project: string, id: string) =>
    request<AutomationRule>("POST", `${projectPath(owner, project)}/automation-rules/${enc(id)}/deactivate`),
  automationRuns: (owner: string, project: string, id: string) =>
    request<Page<AutomationRun>>("GET", `/_loupe/projects/${enc(owner)}/${enc(project)}/automation-rules/${enc(id)}/runs?perPage=5`),
  testAutomationRule: (owner: string, project: string, id: string) =>
    request<{ runId: string }>("POST", `/_loupe/projects/${enc(owner)}/${enc(project)}/automation-rules/${enc(id)}/test`),
  repositoryLink: (owner: string, project: string) =>
    request<{ repository: RepositoryLink | null }>("GET", `/_loupe/projects/${enc(owner)}/${enc(project)}/repository`).then((answer) => answer.repository),
  linkRepository: (owner: string, project: string, body: { provider: string; repository: string; installationId?: string }) =>
    request<{ repository: RepositoryLink }>("PUT", `/_loupe/projects/${enc(owner)}/${enc(project)}/repository`, { body }),
  unlinkRepository: (owner: string, project: string) =>
    request<void>("DELETE", `/_loupe/projects/${enc(owner)}/${enc(project)}/repository`),
  waitingReviews: () => request<{ builds: WaitingBuild[] }>("GET", "/_loupe/reviews/waiting").then((answer) => answer.builds),
  deleteProject: (owner: string, project: string) => request<void>("DELETE", `/_loupe/projects/${enc(owner)}/${enc(project)}`),
  transferProject: (owner: string, project: string, targetAccountSlug: string) =>
    request<ProjectDetails>("POST", `${projectPath(owner, project)}/transfer`, { body: { targetAccountSlug } }),
  contributors: (owner: string, project: string) =>
    request<Page<Contributor>>("GET", `${projectPath(owner, project)}/contributors?perPage=100`),
  setContributor: (owner: string, project: string, userId: string, level: Contributor["level"]) =>
    request<Contributor>("PUT", `${projectPath(owner, project)}/contributors/${enc(userId)}`, { body: { level } }),
  removeContributor: (owner: string, project: string, userId: string) =>
    request<void>("DELETE", `${projectPath(owner, project)}/contributors/${enc(userId)}`),
  ignoredChanges: (owner: string, project: string) =>
    request<Page<IgnoredChange>>("GET", `${projectPath(owner, project)}/ignored-changes?perPage=100`),
  builds: (owner: string, project: string, query: Record<string, string>) =>
    request<Page<Build>>("GET", `${projectPath(owner, project)}/builds?${new URLSearchParams(query)}`),
  build: (owner: string, project: string, number: number) =>
    request<Build>("GET", buildPath(owner, project, number)),
  diffs: (owner: string, project: string, number: number, page: number, perPage: number, signal?: AbortSignal) =>
    request<Page<Diff>>("GET", `${buildPath(owner, project, number)}/diffs?page=${page}&perPage=${perPage}`, {
      signal,
    }),

  deployments: (owner: string, project: string, query: Record<string, string>) =>
    request<Page<Deployment>>("GET", `${projectPath(owner, project)}/deployments?${new URLSearchParams(query)}`),
  analytics: (account: string, query: { from: string; to: string; groupBy: string; projectNames?: string }) =>
    request<Analytics>("GET", `/v2/accounts/${enc(account)}/analytics?${new URLSearchParams(query)}`),
  flakyTests: (owner: string, project: string, period: string) =>
    request<FlakyTests>("GET", `${projectPath(owner, project)}/analytics/flaky?period=${period}&limit=10`),

  reviews: (owner: string, project: string, number: number) =>
    request<Review[]>("GET", `${buildPath(owner, project, number)}/reviews`),
  /** The users asked to review the build, oldest request first. */
  reviewers: (owner: string, project: string, number: number) =>
    request<{ reviewers: UserRef[] }>("GET", `${buildPath(owner, project, number)}/reviewers`).then((answer) => answer.reviewers),
  review: (
    owner: string,
    project: string,
    number: number,
    event: "APPROVE" | "REJECT",
    snapshots: { id: string; conclusion: "APPROVE" | "REQUEST_CHANGES" }[],
  ) => request<Review>("POST", `${buildPath(owner, project, number)}/reviews`, { body: { event, snapshots } }),
  dismissReview: (owner: string, project: string, number: number, reviewId: string) =>
    request<Review>("POST", `${buildPath(owner, project, number)}/reviews/${enc(reviewId)}/dismiss`),

  mediaList: (owner: string, project: string, query: Record<string, string>) =>
    request<Page<Media>>("GET", `${projectPath(owner, project)}/media?${new URLSearchParams(query)}`),
  media: (mediaId: string) => request<Media>("GET", `/v2/media/${enc(mediaId)}`),
  mediaVersions: (mediaId: string) => request<MediaVersion[]>("GET", `/v2/media/${enc(mediaId)}/versions`),
  tests: (owner: string, project: string, query: Record<string, string>) =>
    request<Page<TestSummary>>("GET", `${projectPath(owner, project)}/tests?${new URLSearchParams(query)}`),
  test: (owner: string, project: string, testId: string, period: string) =>
    request<TestDetails>("GET", `${testPath(owner, project, testId)}?metricsPeriod=${period}`),
  testChanges: (owner: string, project: string, testId: string, period: string) =>
    request<Page<TestChange>>("GET", `${testPath(owner, project, testId)}/changes?metricsPeriod=${period}&perPage=20`),
  testHistory: (owner: string, project: string, testId: string, branch: string) =>
    request<{ results: TestHistoryEntry[] }>(
      "GET",
      `/_loupe/projects/${enc(owner)}/${enc(project)}/tests/${enc(testId)}/history?limit=30${branch ? `&branch=${enc(branch)}` : ""}`,
    ).then((answer) => answer.results),
  testMasks: (owner: string, project: string, testId: string, all = false) =>
    request<{ masks: TestMask[] }>("GET", `${testPath(owner, project, testId)}/masks${all ? "?all=true" : ""}`).then((answer) => answer.masks),
  createTestMask: (owner: string, project: string, testId: string, mask: { x: number; y: number; width: number; height: number; note: string; branch: string | null }) =>
    request<TestMask>("POST", `${testPath(owner, project, testId)}/masks`, { body: mask }),
  removeTestMask: (owner: string, project: string, testId: string, maskId: string) =>
    request<TestMask>("DELETE", `${testPath(owner, project, testId)}/masks/${enc(maskId)}`),
  testFollowed: (owner: string, project: string, testId: string) =>
    request<{ subscribed: boolean }>("GET", `/_loupe/projects/${enc(owner)}/${enc(project)}/tests/${enc(testId)}/subscription`).then(
      (answer) => answer.subscribed,
    ),
  followTest: (owner: string, project: string, testId: string, follow: boolean) =>
    request<{ subscribed: boolean }>(follow ? "POST" : "DELETE", `${testPath(owner, project, testId)}/subscription`).then(
      (answer) => answer.subscribed,
    ),

  ignoreChange: (owner: string, project: string, changeId: string, ignore: boolean) =>
    request<{ id: string; ignored: boolean; occurrences: number }>(
      "POST",
      `${projectPath(owner, project)}/changes/${enc(changeId)}/${ignore ? "ignore" : "unignore"}`,
    ),

  live: async (owner: string, project: string, number: number, etag: string | null) => {
    const response = await fetch(`/_loupe/live/${enc(owner)}/${enc(project)}/${number}`, {
      credentials: "same-origin",
      headers: etag ? { "If-None-Match": `"${etag}"` } : {},
    });
    if (response.status === 304) return null;
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as LiveState;
  },
};

export function thumbnailUrl(owner: string, project: string, number: number, diffId: string, side: "base" | "head") {
  return `/_loupe/thumbnails/${enc(owner)}/${enc(project)}/${number}/${enc(diffId)}/${side}`;
}
