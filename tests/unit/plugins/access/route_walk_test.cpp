// Every route of a server with every plugin, called by someone who may see nothing of the
// project its parameters name, is refused. The routes come from GET /openapi.json, which the
// core builds from the route table itself, so a route added later is walked as well. Each
// route declares the object whose permission guards it (x-loupe-access); only the public
// routes listed below, each with the reason it needs none, go without one.
//
// The outsiders: a contributor of the team with no level on its private project (with a
// personal access token, and with a browser session where the route accepts one), and the
// project token of another project of the team. The insider (the team's owner, or the
// project's own token) makes the same calls afterwards: it must get past the guard, which
// proves the parameters and bodies name real objects.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"
#include "unit/plugins/builds/processing_client.hpp"
#include "unit/plugins/deployments/deployments_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

// The routes anyone may call. A route that becomes public must be listed here, with why.
const std::map<std::string, std::string> public_routes = {
    {"GET /healthz", "liveness probe: says only that the process answers"},
    {"GET /readyz", "readiness probe: whether the database and the blob store answer"},
    {"GET /openapi.json", "the API's description, the same for everyone"},
    {"GET /metrics", "its own rule: metrics.token, else callers on this machine only"},
    {"PUT /uploads/{key}", "the signed URL is the credential; the bytes must hash to the key"},
    {"POST /uploads", "the signed form is the credential; the bytes must hash to the key"},
    {"GET /blobs/{key}", "the signed URL is the credential"},
    {"POST /auth/github-actions/tokenless/exchange", "the CI job's credential, verified by GitHub"},
    {"POST /auth/gitlab-ci/tokenless/exchange", "the CI job's credential, verified by GitLab"},
    {"POST /auth/github-actions/oidc/exchange",
     "the CI job's ID token, verified against the issuer's keys"},
    {"POST /auth/gitlab-ci/oidc/exchange",
     "the CI job's ID token, verified against the issuer's keys"},
    {"POST /_loupe/webhooks/github", "signed with the webhook secret; records merges only"},
    {"POST /_loupe/webhooks/gitlab", "carries the webhook secret; records merges only"},
    {"GET /d/{site}/{path}", "a redirect to the site's own origin (the sites listener)"},
    {"GET /_loupe/session", "who the caller's own session cookie belongs to"},
    {"POST /_loupe/session/link", "the one-time link token in the body is the credential"},
    {"DELETE /_loupe/session", "ends the caller's own session"},
    {"GET /_loupe/assets/{file}", "the page's scripts and styles"},
    {"GET /", "the page's shell: it reads every datum through the guarded API"},
    {"GET /_loupe/login", "the page's shell"},
    {"GET /_loupe/oauth/authorize", "the page's shell (the consent page)"},
    {"GET /_loupe/join/{token}", "the page's shell (the join page)"},
    {"GET /_loupe/settings", "the page's shell (the settings page)"},
    {"GET /{account}/{project}/settings", "the page's shell (a project's settings page)"},
    {"GET /_loupe/sso/providers", "the sign-in providers' names, for the sign-in page"},
    {"GET /_loupe/sso/oidc/{provider}/start", "starts a sign-in: the caller is not signed in yet"},
    {"GET /_loupe/sso/oidc/{provider}/callback",
     "the state bound to the browser and the provider's code are the credentials"},
    {"GET /_loupe/sso/saml/{provider}/metadata", "the SAML SP's metadata, for the IdP"},
    {"GET /_loupe/sso/saml/{provider}/start", "starts a sign-in: the caller is not signed in yet"},
    {"POST /_loupe/sso/saml/{provider}/acs",
     "the IdP's signed response to a pending request is the credential"},
    {"GET /_loupe/sso/saml/{provider}/finish",
     "the state bound to the browser and the verified response are the credentials"},
    {"GET /oauth/authorize", "a redirect to the consent page, which requires signing in"},
    {"POST /oauth/token",
     "the code with its PKCE verifier, or the refresh token, is the credential"},
    {"POST /oauth/revoke", "the token in the body is the credential"},
    {"GET /auth/cli/success", "a static page"},
    {"GET /auth/cli", "CLI 4.x's login: a redirect to the consent page, which requires signing in"},
    {"POST /auth/cli/token", "the code with its PKCE verifier is the credential"},
    {"GET /_loupe/notifications/unsubscribe",
     "the signed unsubscribe token names the user and the kind of mail"},
    {"POST /_loupe/notifications/unsubscribe",
     "the signed unsubscribe token names the user and the kind of mail (one-click)"},
    {"GET /{account}", "the page's shell"},
    {"GET /{account}/{project}", "the page's shell"},
    {"GET /{account}/{project}/builds", "the page's shell"},
    {"GET /{account}/{project}/deployments", "the page's shell"},
    {"GET /{account}/{project}/activity", "the page's shell"},
    {"GET /{account}/{project}/tests", "the page's shell"},
    {"GET /{account}/{project}/tests/{testId}", "the page's shell"},
    {"GET /{account}/{project}/media", "the page's shell"},
    {"GET /{account}/{project}/media/{mediaId}", "the page's shell"},
    {"GET /{account}/{project}/builds/{buildNumber}", "the page's shell"},
};

// Routes that act on the caller's own identity, not on an object anyone else holds.
const std::set<std::string> own_identity_routes = {
    "POST /_loupe/session",         // a session for the token's own user
    "GET /me",                      // the caller's own user and the accounts of its scope
    "GET /_loupe/oauth/request",    // what a sign-in request asks of the caller
    "POST /_loupe/oauth/decision",  // the caller's own grant to an application
    // The caller joins the team the token in the path opens (the token is the credential).
    "GET /_loupe/invites/{token}", "POST /_loupe/invites/{token}/accept",
    "GET /_loupe/notifications/settings",     // the caller's own kinds of notification mail
    "PATCH /_loupe/notifications/settings",   // the same, changed
    "GET /_loupe/reviews/waiting",            // the builds waiting for the caller's review
    "GET /_loupe/tokens",                     // the caller's own personal access tokens
    "POST /_loupe/tokens",                    // a new one, within the caller's own reach
    "DELETE /_loupe/tokens/{tokenId}",        // one of the caller's own, revoked
    "GET /_loupe/sessions",                   // the caller's own browser sessions
    "DELETE /_loupe/sessions/{sessionId}",    // one of them, signed out
    "POST /_loupe/sessions/sign-out-others",  // all of them but the caller's
    "GET /_loupe/oauth/grants",               // the applications the caller signed in with
    "DELETE /_loupe/oauth/grants/{grantId}",  // one of them, ended
};

// Routes a personal access token opens but an OAuth access token of `argos login` does not (no
// scope covers them: core/src/auth/oauth_scopes). Every other personal-token route names the
// scope it needs in its `oauth2` security requirement.
const std::map<std::string, std::string> oauth_refused_routes = {
    {"POST /_loupe/session", "a browser session is opened with a personal access token"},
    {"GET /_loupe/oauth/request", "the consent page's own request, read with the session"},
    {"POST /_loupe/oauth/decision", "an application never approves its own grant"},
    {"GET /_loupe/invites/{token}", "joining a team happens in the browser"},
    {"POST /_loupe/invites/{token}/accept", "joining a team happens in the browser"},
    {"GET /_loupe/tokens", "personal access tokens are the person's, not an application's"},
    {"POST /_loupe/tokens", "a token of limited scopes must not mint one of none"},
    {"DELETE /_loupe/tokens/{tokenId}", "personal access tokens are the person's"},
    {"GET /_loupe/sessions", "browser sessions are the person's, not an application's"},
    {"DELETE /_loupe/sessions/{sessionId}", "browser sessions are the person's"},
    {"POST /_loupe/sessions/sign-out-others", "browser sessions are the person's"},
    {"GET /_loupe/oauth/grants", "an application does not see the person's other grants"},
    {"GET /_loupe/accounts/{accountSlug}/chat-targets",
     "a team's chat secrets are managed by its administrators, not by applications"},
    {"PUT /_loupe/accounts/{accountSlug}/chat-targets/{kind}/{name}",
     "a team's chat secrets are managed by its administrators, not by applications"},
    {"DELETE /_loupe/accounts/{accountSlug}/chat-targets/{kind}/{name}",
     "a team's chat secrets are managed by its administrators, not by applications"},
    {"DELETE /_loupe/oauth/grants/{grantId}", "ended by the person (or `argos logout`)"},
};

/// What the walk sends besides the path: a query and a body (JSON), per route.
struct Sample {
    std::string query;
    json body = nullptr;
};

struct Objects {
    int64_t build_number = 0;
    std::string build_id;
    std::string diff_id;
    std::string change_id;
    std::string test_id;
    std::string comment_id;
    std::string test_comment_id;  ///< a comment on the test, the {commentId} of test routes
    std::string mask_id;          ///< a mask drawn on the test
    std::string review_id;
    std::string deployment_id;
    std::string link_id;
    std::string blob_key;
};

struct Caller {
    std::string name;
    std::optional<std::string> bearer;
    std::map<std::string, std::string> headers;  ///< a session's cookie and CSRF token
};

std::string upper(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return text;
}

/// "/projects/{owner}/{project}/builds/{buildNumber}" with the walk's values.
std::string fill_path(const std::string& pattern,
                      const std::map<std::string, std::string>& values) {
    static const std::regex capture(R"(\{([A-Za-z]+)\})");
    std::string path;
    auto begin = std::sregex_iterator(pattern.begin(), pattern.end(), capture);
    std::size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
        path += pattern.substr(last, static_cast<std::size_t>(it->position()) - last);
        const auto value = values.find((*it)[1].str());
        if (value == values.end()) {
            FAIL("give the route walk a value for {" << (*it)[1].str() << "} of " << pattern);
        }
        path += value->second;
        last = static_cast<std::size_t>(it->position() + it->length());
    }
    return path + pattern.substr(last);
}

/// An automation rule posting to a closed port (its deliveries fail quietly in the walk).
json automation_rule() {
    return {{"name", "walked"},
            {"events", {"build.completed"}},
            {"actions",
             {{{"type", "sendWebhook"}, {"payload", {{"url", "http://127.0.0.1:9/walk"}}}}}}};
}

Sample sample_for(const std::string& route, const Objects& o) {
    const std::string commit = sha('e');
    static const std::map<std::string, Sample> samples = {};
    if (route == "POST /builds") {
        return {"", {{"commit", commit}, {"branch", "walk"}, {"screenshotKeys", json::array()}}};
    }
    if (route == "PUT /builds/{buildId}") {
        return {"", {{"screenshots", json::array()}}};
    }
    if (route == "POST /builds/finalize") {
        return {"", {{"parallelNonce", "walk-nonce"}}};
    }
    if (route == "POST /baseline") {
        return {"", {{"commits", {sha('a')}}}};
    }
    if (route == "POST /projects") {
        return {"", {{"name", "walked"}, {"accountSlug", "default"}}};
    }
    // A rule definition the owner may create and replace.
    if (route == "POST /projects/{owner}/{project}/automation-rules" ||
        route == "PUT /projects/{owner}/{project}/automation-rules/{ruleId}") {
        return {"", automation_rule()};
    }
    if (route == "PUT /_loupe/accounts/{accountSlug}/chat-targets/{kind}/{name}") {
        return {"", {{"secret", "https://discord.example/api/webhooks/1/walk"}}};
    }
    if (route == "POST /deployments") {
        return {"", deployment_body({{"index.html", "<p>walk</p>"}}, "walk")};
    }
    if (route == "PUT /_loupe/projects/{owner}/{project}/repository") {
        return {"", {{"provider", "github"}, {"repository", "acme/web"}, {"installationId", "7"}}};
    }
    if (route == "PUT /projects/{owner}/{project}/domain") {
        return {"", {{"domain", "walk-site.sites.example.test"}}};
    }
    if (route.ends_with("/reviews") && route.starts_with("POST")) {
        return {"", {{"event", "COMMENT"}, {"body", "walked"}}};
    }
    if (route.ends_with("/comments") && route.starts_with("POST")) {
        return {"", {{"body", "walked"}}};
    }
    if (route == "POST /projects/{owner}/{project}/tests/{testId}/masks") {
        return {"", {{"x", 0}, {"y", 0}, {"width", 10}, {"height", 10}, {"note", "walked"}}};
    }
    if (route.starts_with("PATCH") && route.ends_with("/comments/{commentId}")) {
        return {"", {{"body", "walked again"}}};
    }
    if (route.ends_with("/reactions")) {
        return route.starts_with("POST") ? Sample{"", {{"emoji", "\xF0\x9F\x91\x8D"}}}
                                         : Sample{"?emoji=%F0%9F%91%8D", nullptr};
    }
    // Revokes the links of no site, so that the walk's link is still there to revoke by id.
    if (route == "DELETE /projects/{owner}/{project}/deployments/links") {
        return {"?site=walk-no-such-site", nullptr};
    }
    // Carol keeps her role (and her membership until the deletions at the end).
    if (route == "PATCH /accounts/{accountSlug}/members/{userId}") {
        return {"", {{"level", "contributor"}}};
    }
    if (route == "PATCH /accounts/{accountSlug}") {
        return {"", {{"defaultUserLevel", "member"}}};
    }
    // The same base branch again: the project keeps its settings for the routes after it.
    if (route == "PATCH /projects/{owner}/{project}") {
        return {"", {{"defaultBaseBranch", "main"}}};
    }
    if (route == "PUT /projects/{owner}/{project}/contributors/{userId}") {
        return {"", {{"level", "viewer"}}};
    }
    if (route.ends_with("/reviewers") && !route.starts_with("GET")) {
        return {"", {{"userIds", {"1"}}}};
    }
    // The first invite of the walk (id 1), cancelled by the deletions at the end.
    if (route == "POST /accounts/{accountSlug}/invites") {
        return {"", {{"members", {{{"email", "walk@walk.example"}, {"level", "member"}}}}}};
    }
    // The owner's own address is on the domain (set before the walk).
    if (route == "POST /accounts/{accountSlug}/domains") {
        return {"", {{"domain", "walk.example"}}};
    }
    // To the account that owns it already, under its name: the project stays where it is.
    if (route == "POST /projects/{owner}/{project}/transfer") {
        return {"", {{"targetAccountSlug", "default"}}};
    }
    if (route == "GET /accounts/{accountSlug}/analytics") {
        return {"?from=2020-01-01T00:00:00.000Z&to=2020-01-31T00:00:00.000Z&groupBy=day", nullptr};
    }
    (void)o;
    return {};
}

HttpResult call(const TestServer& server, const std::string& method, const std::string& path,
                const Sample& sample, const Caller& caller) {
    HttpCall request;
    request.method = method;
    request.url = server.base_url() + "/v2" + path + sample.query;
    request.body = sample.body.is_null() ? "" : sample.body.dump();
    request.bearer = caller.bearer;
    request.headers = caller.headers;
    return http(request);
}

/// Whether `value` holds the Project resource with this id anywhere (other resources, such as a
/// team's memberships, may have the same numeric id).
bool shows_project(const json& value, const std::string& project_id) {
    if (value.is_object() && value.contains("defaultBaseBranch") &&
        value.value("id", json()) == project_id) {
        return true;
    }
    if (value.is_structured()) {
        for (const auto& item : value) {
            if (shows_project(item, project_id)) {
                return true;
            }
        }
    }
    return false;
}

bool is_refusal(int status) {
    return status == 401 || status == 403 || status == 404;
}

/// A route's weight in the walk's order: reads first, deletions last (they remove what later
/// routes name), and among them the deletion of an object itself (a comment) after those of
/// what hangs from it (its reactions, its subscription).
int order_of(const std::string& method, const std::string& path) {
    if (method == "GET") {
        return 0;
    }
    if (method != "DELETE") {
        return 1;
    }
    return path.ends_with("}") ? 3 : 2;
}

}  // namespace

TEST_CASE("every route refuses a caller without access to the object it names") {
    ServerOptions options;
    options.plugins = {"auth", "builds", "reviews", "deployments", "web",          "analytics",
                       "git",  "sso",    "oauth",   "automation",  "notifications"};
    // The sample webhook posts to a closed local port: loopback must be allowed for it.
    options.settings = {{"plugins.automation.webhook_allowed_networks", "127.0.0.0/8"}};
    InProcessServer server(options);
    const std::string& owner_pat = server.personal_token();
    const std::string& project_token = server.project_token();
    const std::string carol_pat = member_token(server, "carol", "contributor");
    admin(server, {"user", "set-email", "--user", "admin", "--email", "owner@walk.example"});
    admin(server, {"user", "create", "--slug", "dave", "--name", "Dave"});
    const std::string dave_pat =
        find_token(admin(server, {"token", "create", "--user", "dave"}), "arp_");
    REQUIRE_FALSE(dave_pat.empty());
    const json other =
        admin(server, {"project", "create", "--account", "default", "--name", "other"});
    const std::string other_token = find_token(other, "argos_");
    REQUIRE_FALSE(other_token.empty());

    // The objects of the private project default/default the routes name.
    Objects o;
    wait_concluded(server, push_shots(server, {{"x", png_blob("x")}},
                                      {{"commit", sha('a')}, {"branch", "main"}})["number"]);
    const json build =
        wait_concluded(server, push_shots(server, {{"x", png_blob("x", Paint{10, 8, 14, 10})}},
                                          {{"commit", sha('b')},
                                           {"branch", "feature"},
                                           {"referenceCommit", sha('a')}})["number"]);
    o.build_number = build["number"];
    o.build_id = build["id"];
    const json diff = list_diffs(server, o.build_number)["results"][0];
    o.diff_id = diff["id"];
    o.change_id = diff["change"]["id"];
    o.test_id = diff["test"]["id"];
    o.blob_key = diff["head"]["key"].is_string() ? diff["head"]["key"].get<std::string>()
                                                 : std::string(64, 'a');
    const std::string build_path =
        server.base_url() + "/v2/projects/default/default/builds/" + std::to_string(o.build_number);
    const auto comment =
        http_json("POST", build_path + "/comments", {{"body", "hello"}}, owner_pat);
    REQUIRE_MESSAGE(comment.status == 201, comment.body);
    o.comment_id = comment.json()["id"];
    const auto test_comment = http_json(
        "POST", server.base_url() + "/v2/projects/default/default/tests/" + o.test_id + "/comments",
        {{"body", "about the test"}}, owner_pat);
    REQUIRE_MESSAGE(test_comment.status == 201, test_comment.body);
    o.test_comment_id = test_comment.json()["id"];
    const auto mask = http_json(
        "POST", server.base_url() + "/v2/projects/default/default/tests/" + o.test_id + "/masks",
        {{"x", 1}, {"y", 1}, {"width", 4}, {"height", 4}}, owner_pat);
    REQUIRE_MESSAGE(mask.status == 201, mask.body);
    o.mask_id = mask.json()["id"];
    const auto review =
        http_json("POST", build_path + "/reviews", {{"event", "APPROVE"}}, owner_pat);
    REQUIRE_MESSAGE(review.status == 200, review.body);
    o.review_id = review.json()["id"];
    const json deployment = deploy(server, {{"index.html", "<p>site</p>"}});
    o.deployment_id = deployment["id"];
    // The private project's deployment URL is a private link: the one the link routes name.
    const auto links =
        http_get(server.base_url() + "/v2/projects/default/default/deployments/links", owner_pat);
    REQUIRE_MESSAGE(links.status == 200, links.body);
    REQUIRE_FALSE(links.json().empty());
    o.link_id = links.json()[0]["id"];
    // Rule 1 (the {ruleId} of the walk), when the automation plugin is loaded.
    const auto rule =
        http_json("POST", server.base_url() + "/v2/projects/default/default/automation-rules",
                  automation_rule(), owner_pat);
    REQUIRE_MESSAGE((rule.status == 201 || rule.status == 404), rule.body);
    const auto project_resource =
        http_get(server.base_url() + "/v2/projects/default/default", owner_pat);
    REQUIRE(project_resource.status == 200);
    REQUIRE(project_resource.json()["private"] == true);
    const std::string private_project_id = project_resource.json()["id"].get<std::string>();

    // Carol's public id (her personal account's), which the member routes take.
    std::string carol_id;
    const auto members =
        http_get(server.base_url() + "/v2/accounts/default/members?search=carol", owner_pat);
    REQUIRE_MESSAGE(members.status == 200, members.body);
    REQUIRE(members.json()["results"].size() == 1);
    carol_id = members.json()["results"][0]["user"]["id"].get<std::string>();

    const std::map<std::string, std::string> values = {
        {"userId", carol_id},
        {"owner", "default"},
        {"project", "default"},
        {"accountSlug", "default"},
        {"inviteId", "1"},
        {"domain", "walk.example"},
        {"buildNumber", std::to_string(o.build_number)},
        {"buildId", o.build_id},
        {"diffId", o.diff_id},
        {"side", "head"},
        {"changeId", o.change_id},
        {"testId", o.test_id},
        {"commentId", o.comment_id},
        {"maskId", o.mask_id},
        {"reviewId", o.review_id},
        {"deploymentId", o.deployment_id},
        {"linkId", o.link_id},
        // An automation rule's id: the guard refuses before the rule is looked up.
        {"ruleId", "1"},
        // A project token's id: the guard refuses before the token is looked up.
        {"tokenId", "1"},
        // A team's chat target: the guard refuses before the path is read.
        {"kind", "discord"},
        {"name", "ops"},
    };

    // Carol's browser session (the review page), with its CSRF token.
    const auto signed_in = http(HttpCall{
        "POST", server.base_url() + "/_loupe/session", "", "application/json", carol_pat, {}});
    REQUIRE_MESSAGE(signed_in.status == 201, signed_in.body);
    const std::string set_cookie = signed_in.header("set-cookie");
    const Caller carol_session{
        "carol's browser session",
        std::nullopt,
        {{"Cookie", set_cookie.substr(0, set_cookie.find(';'))},
         {"X-CSRF-Token", signed_in.json()["csrfToken"].get<std::string>()}}};
    const Caller carol_token{"carol's personal access token", carol_pat, {}};
    const Caller other_project{"the token of project default/other", other_token, {}};
    const Caller dave_token{"the token of dave, of no team", dave_pat, {}};

    const auto document = http_get(server.base_url() + "/openapi.json");
    REQUIRE(document.status == 200);
    struct Operation {
        std::string method;
        std::string path;
        json operation;
    };
    std::vector<Operation> operations;
    const json described = document.json();
    for (const auto& [path, item] : described["paths"].items()) {
        for (const auto& [method, operation] : item.items()) {
            if (method != "servers" && method != "parameters") {
                operations.push_back({upper(method), path, operation});
            }
        }
    }
    std::stable_sort(operations.begin(), operations.end(), [](const auto& a, const auto& b) {
        return order_of(a.method, a.path) < order_of(b.method, b.path);
    });
    REQUIRE(operations.size() > 40);

    std::set<std::string> seen_public;
    int walked = 0;
    std::string project_deletion;  // the path deleting the walk's project, called last
    for (const auto& [method, path, operation] : operations) {
        const std::string route = method + " " + path;
        CAPTURE(route);
        const std::string access = operation.value("x-loupe-access", "undeclared");
        REQUIRE_MESSAGE(access != "undeclared", route << " declares no access guard");
        if (access == "public") {
            CHECK_MESSAGE(public_routes.contains(route),
                          route << " is public but not in the walk's list of public routes");
            seen_public.insert(route);
            continue;
        }
        const std::string auth = operation.value("x-loupe-auth", "");
        const bool personal =
            auth.starts_with("personal_token") || auth == "project_or_personal_token";
        const bool project = auth == "project_token" || auth == "project_or_personal_token";
        bool session = false;
        for (const auto& requirement : operation["security"]) {
            for (const auto& [scheme, _] : requirement.items()) {
                session = session || (scheme != "projectToken" && scheme != "personalAccessToken" &&
                                      scheme != "oauth2");
            }
        }
        if (personal) {
            bool oauth_scope = false;
            for (const auto& requirement : operation["security"]) {
                oauth_scope = oauth_scope || requirement.contains("oauth2");
            }
            CHECK_MESSAGE((oauth_scope || oauth_refused_routes.contains(route)),
                          route << " names no OAuth scope and is not listed as refusing OAuth "
                                   "access tokens");
        }
        if (access == "signed-in") {
            CHECK_MESSAGE(own_identity_routes.contains(route),
                          route << " acts on the caller's own identity but is not listed");
            continue;
        }
        const bool names_an_object = path.find('{') != std::string::npos;
        std::vector<const Caller*> outsiders;
        if (personal) {
            outsiders.push_back(&carol_token);
            outsiders.push_back(&dave_token);
        }
        if (session) {
            outsiders.push_back(&carol_session);
        }
        if (project && names_an_object) {
            outsiders.push_back(&other_project);
        }
        if (outsiders.empty()) {
            // Only a project token, and no object in the path: it acts on the token's own
            // project, which is all the guard may say.
            CHECK(access.starts_with("token-project:"));
            continue;
        }
        auto path_values = values;
        if (path.find("/tests/{testId}/comments") != std::string::npos) {
            path_values["commentId"] = o.test_comment_id;
        }
        const std::string target = fill_path(path, path_values);
        const Sample sample = sample_for(route, o);
        // An account's routes let its members in and show each only the projects it may view:
        // carol may pass, but nothing of the private project may reach her.
        const bool account_route = access.starts_with("account:");
        for (const Caller* outsider : outsiders) {
            const auto answer = call(server, method, target, sample, *outsider);
            if (account_route && outsider != &dave_token && answer.status < 400) {
                CHECK_MESSAGE(!shows_project(answer.json(), private_project_id),
                              route << " showed the private project to " << outsider->name << ": "
                                    << answer.body);
                continue;
            }
            CHECK_MESSAGE(is_refusal(answer.status), route << " answered " << answer.status
                                                           << " to " << outsider->name << ": "
                                                           << answer.body);
        }
        const Caller insider{"the owner", personal ? owner_pat : project_token, {}};
        // Deleting the walk's project would leave nothing to the routes after it: the owner
        // deletes it once the walk is over.
        if (route == "DELETE /_loupe/projects/{owner}/{project}") {
            project_deletion = target;
            ++walked;
            continue;
        }
        const auto answer = call(server, method, target, sample, insider);
        // The walk's deployment is already finalized: the handler, past the guard, says so.
        const bool finalized = route == "POST /deployments/{deploymentId}/finalize" &&
                               answer.status == 400 &&
                               answer.body.find("not in pending status") != std::string::npos;
        // Carol's level on the project, granted just before, is revoked at once (the routes
        // after this one must still find her without access); the revocation route then finds
        // no level left to revoke, which the handler, past the guard, says.
        const std::string contributor_route = "/projects/{owner}/{project}/contributors/{userId}";
        if (route == "PUT " + contributor_route && answer.status == 200) {
            CHECK(call(server, "DELETE", target, {}, insider).status == 204);
        }
        // The walk serves sites by path: the handler, past the guard, says no domain is set.
        const bool served_by_path = route == "PUT /projects/{owner}/{project}/domain" &&
                                    answer.status == 400 &&
                                    answer.body.find("serves sites by path") != std::string::npos;
        // Nor has it a GitHub App, nor a link to remove: the handlers, past the guard, say so.
        const std::string repository_route = "/_loupe/projects/{owner}/{project}/repository";
        const bool no_provider = (route == "PUT " + repository_route && answer.status == 400 &&
                                  answer.body.find("no GitHub App") != std::string::npos) ||
                                 (route == "DELETE " + repository_route && answer.status == 404 &&
                                  answer.body.find("linked to no repository") != std::string::npos);
        const bool not_contributor = route == "DELETE " + contributor_route &&
                                     answer.status == 404 &&
                                     answer.body.find("not a contributor") != std::string::npos;
        CHECK_MESSAGE((answer.status < 400 || answer.status == 409 || finalized ||
                       not_contributor || served_by_path || no_provider),
                      route << " answered " << answer.status << " to the owner: " << answer.body);
        ++walked;
    }
    REQUIRE_MESSAGE(!project_deletion.empty(), "the walk met no route deleting a project");
    CHECK(call(server, "DELETE", project_deletion, {}, Caller{"the owner", owner_pat, {}}).status ==
          204);
    // A plain variable: clang 14 (which clang-tidy runs on) cannot capture a structured
    // binding in CHECK_MESSAGE's lambda.
    for (const auto& listed : public_routes) {
        const std::string& route = listed.first;
        CHECK_MESSAGE(seen_public.contains(route), route << " is listed public but is not public");
    }
    CHECK(walked > 30);
}
