// Keyless CI uploads with the real Argos CLIs. On GitHub Actions without ARGOS_TOKEN,
// the 4.x CLI sends its `tokenless-github-` bearer to every endpoint and the latest CLI first
// exchanges it for a short-lived token; on GitLab CI the job builds a `tokenless-gitlab-` token
// in one shell line and exchanges it for ARGOS_TOKEN. GitHub and GitLab are the local stand-in
// (tests/standin, LOUPE_STANDIN_BIN), which verifies the App's JWT with its public key. The
// stand-in is also the OpenID Connect issuer of GitHub Actions ID tokens: with
// ACTIONS_ID_TOKEN_REQUEST_URL/_TOKEN set, the latest CLI fetches one there and exchanges it
// (POST /auth/github-actions/oidc/exchange); the 4.x CLI knows no OIDC and stays tokenless.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { apiRequests, logTail } from "./support/checks.mjs";
import { clis, describeRun, GitRepo, node22, runCli } from "./support/cli.mjs";
import { LoupeServer } from "./support/server.mjs";
import { Standin, standinMissing } from "./support/standin.mjs";
import { createdBuildNumber, getBuild, skipReason } from "./support/suite.mjs";

function skip() {
  return skipReason() || standinMissing();
}

describe("keyless CI uploads", { skip: skip() }, () => {
  let server, standin;
  const runs = {};
  const jobs = {};
  const oidcRequests = {};
  const data = () => ({
    installations: { 77: { mode: "ok", repositories: ["acme/web"] } },
    runs,
    gitlab: { token: "glpat-standin", projects: { "group/app": 501 }, jobs },
    oidc: { keys: ["k1"], signWith: "k1", requests: oidcRequests },
  });

  before(async () => {
    standin = await Standin.start();
    server = await LoupeServer.start({
      node22,
      settings: [
        "plugins.enabled=auth,builds,git",
        ...standin.githubSettings(),
        `gitlab.api_url=${standin.url}/gitlab/api/v4`,
        "gitlab.token=glpat-standin",
        `github.actions_oidc_issuer=${standin.url}/oidc/github`,
      ],
    });
    server.admin("project", "link-github", "--project", "default/default", "--repo", "acme/web",
      "--installation-id", "77");
    server.admin("project", "tokenless-auth", "--project", "default/default", "--enabled", "true");
    server.admin("project", "github-actions-oidc", "--project", "default/default", "--enabled", "true");
    server.admin("project", "create", "--account", "default", "--name", "gitlab-app");
    server.admin("project", "link-gitlab", "--project", "default/gitlab-app", "--gitlab-project", "group/app");
    server.admin("project", "tokenless-auth", "--project", "default/gitlab-app", "--enabled", "true");
    server.admin("project", "gitlab-ci-oidc", "--project", "default/gitlab-app", "--enabled", "true");
  });
  after(async () => {
    await server?.stop();
    standin?.stop();
  });

  clis.forEach((cli, index) => {
    test(`GitHub Actions, CLI ${cli.name}: uploads with no ARGOS_TOKEN`, async () => {
      const repo = new GitRepo({ branch: `tokenless-${index}` });
      const { dir } = repo.screenshots("screenshots", `tokenless-${cli.name}`, 3);
      const runId = String(5000 + index);
      runs[`acme/web/${runId}`] = { status: "in_progress", head_sha: repo.commit, head_branch: repo.branch };
      await standin.setData(data());
      const before = apiRequests(server).length;
      const runsAsked = (await standin.counts()).workflow_run ?? 0;
      // The GitHub Actions environment and nothing else: no ARGOS_TOKEN, no GITHUB_TOKEN.
      const env = {
        ARGOS_API_BASE_URL: server.apiBaseUrl,
        GITHUB_ACTIONS: "true",
        GITHUB_REPOSITORY: "acme/web",
        GITHUB_RUN_ID: runId,
        GITHUB_JOB: "visual",
        GITHUB_SHA: repo.commit,
        GITHUB_REF: `refs/heads/${repo.branch}`,
        DISABLE_GITHUB_TOKEN_WARNING: "true",
      };
      const run = await runCli(cli, repo, ["upload", dir], env);
      assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
      const created = createdBuildNumber(run);
      assert.ok(created, describeRun(cli, run));
      const build = await getBuild(server, created.number);
      assert.equal(build.head.sha, repo.commit);
      assert.equal(build.head.branch, repo.branch);

      const requests = apiRequests(server).slice(before);
      const exchanged = requests.filter((r) => r.path.endsWith("/auth/github-actions/tokenless/exchange"));
      if (cli.name === "4.x") {
        assert.equal(exchanged.length, 0, "the 4.x CLI sends its tokenless bearer directly");
      } else {
        assert.deepEqual(exchanged.map((r) => r.status), [200], "the latest CLI exchanges once");
      }
      assert.ok(requests.some((r) => r.method === "POST" && /\/builds$/.test(r.path) && r.status === 201),
        requests.map((r) => r.line).join("\n"));
      // One look at the workflow run for the whole upload (the bearer's verification is kept).
      assert.equal((await standin.counts()).workflow_run - runsAsked, 1);
    });
  });

  test("GitHub Actions with id-token: write, latest CLI: uploads with an OIDC ID token", async () => {
    const cli = clis.find((candidate) => candidate.name === "latest");
    const repo = new GitRepo({ branch: "oidc-latest" });
    const { dir } = repo.screenshots("screenshots", "oidc-latest", 2);
    // The job's ID token request token; the claims GitHub would sign for this job.
    oidcRequests["request-oidc-latest"] = {
      repository: "acme/web",
      repository_id: "123456",
      repository_owner: "acme",
      sha: repo.commit,
      ref: `refs/heads/${repo.branch}`,
      event_name: "push",
    };
    await standin.setData(data());
    const before = apiRequests(server).length;
    const counts = await standin.counts();
    const run = await runCli(cli, repo, ["upload", dir], {
      ARGOS_API_BASE_URL: server.apiBaseUrl,
      GITHUB_ACTIONS: "true",
      GITHUB_REPOSITORY: "acme/web",
      GITHUB_RUN_ID: "6001",
      GITHUB_JOB: "visual",
      GITHUB_SHA: repo.commit,
      GITHUB_REF: `refs/heads/${repo.branch}`,
      ACTIONS_ID_TOKEN_REQUEST_URL: `${standin.url}/oidc/github/token?api-version=2.0`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: "request-oidc-latest",
      DISABLE_GITHUB_TOKEN_WARNING: "true",
    });
    assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
    const created = createdBuildNumber(run);
    assert.ok(created, describeRun(cli, run));
    const build = await getBuild(server, created.number);
    assert.equal(build.head.sha, repo.commit);
    const requests = apiRequests(server).slice(before);
    const exchanged = requests.filter((r) => r.path.endsWith("/auth/github-actions/oidc/exchange"));
    assert.deepEqual(exchanged.map((r) => r.status), [200], requests.map((r) => r.line).join("\n"));
    assert.ok(!requests.some((r) => r.path.endsWith("/tokenless/exchange")), "no tokenless exchange");
    const after = await standin.counts();
    assert.equal((after.oidc_token ?? 0) - (counts.oidc_token ?? 0), 1, "one ID token requested");
    assert.equal((after.workflow_run ?? 0) - (counts.workflow_run ?? 0), 0, "GitHub's API not asked");

    // The same job's ID token does not stand for another commit: the CLI's upload is refused.
    repo.git("commit", "-q", "--allow-empty", "-m", "next");
    const next = repo.git("rev-parse", "HEAD").trim();
    const refused = await runCli(cli, repo, ["upload", dir], {
      ARGOS_API_BASE_URL: server.apiBaseUrl,
      GITHUB_ACTIONS: "true",
      GITHUB_REPOSITORY: "acme/web",
      GITHUB_RUN_ID: "6001",
      GITHUB_JOB: "visual",
      GITHUB_SHA: next,
      GITHUB_REF: `refs/heads/${repo.branch}`,
      ACTIONS_ID_TOKEN_REQUEST_URL: `${standin.url}/oidc/github/token`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: "request-oidc-latest",
      DISABLE_GITHUB_TOKEN_WARNING: "true",
    });
    assert.notEqual(refused.code, 0, describeRun(cli, refused));
    assert.match(refused.output, /GitHub Actions OIDC token does not match commit/, describeRun(cli, refused));
  });

  test("GitHub Actions: a run that is over cannot upload", async () => {
    const repo = new GitRepo({ branch: "tokenless-over" });
    const { dir } = repo.screenshots("screenshots", "tokenless-over", 1);
    runs["acme/web/5100"] = { status: "completed", head_sha: repo.commit, head_branch: repo.branch };
    await standin.setData(data());
    for (const cli of clis) {
      const run = await runCli(cli, repo, ["upload", dir], {
        ARGOS_API_BASE_URL: server.apiBaseUrl,
        GITHUB_ACTIONS: "true",
        GITHUB_REPOSITORY: "acme/web",
        GITHUB_RUN_ID: "5100",
        GITHUB_JOB: "visual",
        GITHUB_SHA: repo.commit,
        GITHUB_REF: `refs/heads/${repo.branch}`,
        DISABLE_GITHUB_TOKEN_WARNING: "true",
      });
      assert.notEqual(run.code, 0, describeRun(cli, run));
      assert.match(run.output, /GitHub job is not in progress/, describeRun(cli, run));
    }
  });

  test("GitLab CI: the documented one-line token, exchanged, then the CLI uploads", async () => {
    for (const cli of clis) {
      const repo = new GitRepo({ branch: `gitlab-${cli.name}` });
      const { dir } = repo.screenshots("screenshots", `gitlab-${cli.name}`, 2);
      const jobToken = `glcbt-64_${cli.name}-job`;
      jobs[jobToken] = { id: 9, status: "running", project_id: 501, sha: repo.commit, ref: repo.branch };
      await standin.setData(data());
      const gitlabEnv = {
        GITLAB_CI: "true",
        CI_PROJECT_PATH: "group/app",
        CI_JOB_TOKEN: jobToken,
        CI_COMMIT_SHA: repo.commit,
        CI_COMMIT_REF_NAME: repo.branch,
        CI_PIPELINE_ID: "321",
        LOUPE_API_URL: server.apiBaseUrl.replace(/\/$/, ""),
      };
      // docs/git-providers.md, "GitLab CI": the token in one line, then the exchange.
      const script = `
        TOKENLESS="tokenless-gitlab-$(printf '{"gitlabProject":"%s","jobToken":"%s"}' "$CI_PROJECT_PATH" "$CI_JOB_TOKEN" | base64 -w0)"
        curl -fsS -X POST "$LOUPE_API_URL/auth/gitlab-ci/tokenless/exchange" -H 'Content-Type: application/json' \\
          -d "{\\"tokenlessToken\\":\\"$TOKENLESS\\",\\"commit\\":\\"$CI_COMMIT_SHA\\",\\"branch\\":\\"$CI_COMMIT_REF_NAME\\"}" \\
          | sed -E 's/.*"token":"([^"]+)".*/\\1/'`;
      const token = execFileSync("bash", ["-c", script], { env: repo.env(gitlabEnv) }).toString().trim();
      assert.match(token, /^argos_tmp_[a-z1-9]{30}$/, "a 40-character ARGOS_TOKEN");
      const run = await runCli(cli, repo, ["upload", dir], {
        ...gitlabEnv,
        ARGOS_API_BASE_URL: server.apiBaseUrl,
        ARGOS_TOKEN: token,
      });
      assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
      const created = createdBuildNumber(run);
      assert.ok(created, describeRun(cli, run));
      assert.match(created.url, /\/default\/gitlab-app\/builds\/\d+$/, "the build went to the linked project");
    }
    const counts = await standin.counts();
    assert.ok(counts.gitlab_job >= clis.length, JSON.stringify(counts));
  });

  test("GitLab CI: an id_tokens ID token, exchanged with the documented curl, then the CLI uploads", async () => {
    const cli = clis.find((candidate) => candidate.name === "latest");
    const repo = new GitRepo({ branch: "gitlab-oidc" });
    const { dir } = repo.screenshots("screenshots", "gitlab-oidc", 1);
    // What GitLab hands the job as $LOUPE_ID_TOKEN for `id_tokens: LOUPE_ID_TOKEN: aud: <origin>`.
    const signed = await fetch(`${standin.url}/_standin/oidc/sign`, {
      method: "POST",
      body: JSON.stringify({
        issuer: "gitlab",
        claims: {
          aud: new URL(server.apiBaseUrl).origin,
          project_path: "group/app",
          project_id: "501",
          sha: repo.commit,
          ref: repo.branch,
          ref_type: "branch",
          pipeline_source: "push",
        },
      }),
    });
    const { value: idToken } = await signed.json();
    const gitlabEnv = {
      GITLAB_CI: "true",
      CI_COMMIT_SHA: repo.commit,
      CI_COMMIT_REF_NAME: repo.branch,
      LOUPE_ID_TOKEN: idToken,
      LOUPE_API_URL: server.apiBaseUrl.replace(/\/$/, ""),
    };
    // docs/git-providers.md, "GitLab CI with an ID token".
    const script = `
      curl -fsS -X POST "$LOUPE_API_URL/auth/gitlab-ci/oidc/exchange" \\
        -H 'Content-Type: application/json' \\
        -d "{\\"oidcToken\\":\\"$LOUPE_ID_TOKEN\\",\\"commit\\":\\"$CI_COMMIT_SHA\\"}" \\
        | sed -E 's/.*"token":"([^"]+)".*/\\1/'`;
    const token = execFileSync("bash", ["-c", script], { env: repo.env(gitlabEnv) }).toString().trim();
    assert.match(token, /^argos_tmp_[a-z1-9]{30}$/, "a 40-character ARGOS_TOKEN");
    const run = await runCli(cli, repo, ["upload", dir], {
      ...gitlabEnv,
      ARGOS_API_BASE_URL: server.apiBaseUrl,
      ARGOS_TOKEN: token,
    });
    assert.equal(run.code, 0, `${describeRun(cli, run)}\n${logTail(server)}`);
    const created = createdBuildNumber(run);
    assert.ok(created, describeRun(cli, run));
    assert.match(created.url, /\/default\/gitlab-app\/builds\/\d+$/, "the build went to the linked project");
  });

  test("a project administrator links a repository from the page's API, only one the server can reach", async () => {
    await standin.setData(data());
    server.admin("project", "create", "--account", "default", "--name", "linked-from-page");
    const path = "_loupe/projects/default/linked-from-page/repository";
    const put = (body, token = server.personalAccessToken) => server.api("PUT", path, { token, body });
    assert.deepEqual((await server.api("GET", path, { token: server.personalAccessToken })).body, { repository: null });

    // The installation must see the repository, the GitLab token the project: nothing stored otherwise.
    const unseen = await put({ provider: "github", repository: "other/repo", installationId: "77" });
    assert.equal(unseen.status, 400, unseen.text);
    assert.match(unseen.body.error, /installation 77 cannot see other\/repo/);
    assert.equal((await put({ provider: "github", repository: "acme/web", installationId: "78" })).status, 400, "an unknown installation");
    assert.equal((await put({ provider: "github", repository: "not a repo", installationId: "77" })).status, 400);
    assert.equal((await put({ provider: "github", repository: "acme/web" })).status, 400, "GitHub needs the installation");
    assert.equal((await put({ provider: "gitlab", repository: "group/missing" })).status, 400);
    assert.equal((await put({ provider: "github", repository: "acme/web", installationId: "77" }, server.projectToken)).status, 401);
    assert.deepEqual((await server.api("GET", path, { token: server.personalAccessToken })).body, { repository: null });

    const github = await put({ provider: "github", repository: "acme/web", installationId: "77" });
    assert.equal(github.status, 200, github.text);
    assert.deepEqual(github.body.repository, { provider: "github", repository: "acme/web", installationId: "77", ownToken: false });
    const gitlab = await put({ provider: "gitlab", repository: "group/app" });
    assert.equal(gitlab.status, 200, gitlab.text);
    assert.equal(gitlab.body.repository.provider, "gitlab");
    const links = server.admin("project", "links");
    assert.ok(JSON.stringify(links).includes("group/app"), JSON.stringify(links));
    assert.equal((await server.api("DELETE", path, { token: server.personalAccessToken })).status, 204);
    assert.equal((await server.api("DELETE", path, { token: server.personalAccessToken })).status, 404);
  });
});
