#pragma once
// A local stand-in for the parts of the GitHub and GitLab REST APIs Loupe calls, for tests (the
// real services cannot be reached from here). It speaks HTTP (or HTTPS with a given certificate)
// on 127.0.0.1 and answers from fixed data the test sets:
//
//   GitHub, under /github:
//     POST /app/installations/{id}/access_tokens   verifies the App's JWT (RS256 with the App's
//                                                  public key, iss = the App ID, live iat/exp)
//     GET  /repos/{owner}/{repo}/actions/runs/{id} as an installation with access to the repo
//     POST /repos/{owner}/{repo}/statuses/{sha}    recorded
//     POST  /repos/{owner}/{repo}/issues/{n}/comments       recorded (comment_create) → {"id"}
//     PATCH /repos/{owner}/{repo}/issues/comments/{id}      recorded (comment_edit); 404 for
//                                                           an unknown or deleted comment
//     POST  /repos/{owner}/{repo}/check-runs                recorded (check_create) → {"id"}
//     PATCH /repos/{owner}/{repo}/check-runs/{id}           recorded (check_update)
//     POST /login/oauth/access_token   an OAuth app's code for a user token (form: client_id,
//                                      client_secret, code, code_verifier); a refusal is 200
//                                      with {"error", "error_description"}, as GitHub answers
//     GET  /user, /user/emails, /user/orgs, /user/teams   as that user (Bearer token)
//   GitLab, under /gitlab/api/v4:
//     GET  /job                                    JOB-TOKEN header
//     GET  /projects/{path}                        PRIVATE-TOKEN header
//     POST /projects/{path}/statuses/{sha}         PRIVATE-TOKEN header, recorded
//     POST /projects/{path}/merge_requests/{iid}/notes        recorded (note_create) → {"id"}
//     PUT  /projects/{path}/merge_requests/{iid}/notes/{id}   recorded (note_edit)
//   OpenID Connect issuers of CI ID tokens (RS256, keys made per `kid` on first use):
//     GitHub Actions, issuer {base}/oidc/github:
//       GET /oidc/github/.well-known/openid-configuration, GET /oidc/github/.well-known/jwks
//       GET /oidc/github/token?audience=A   ACTIONS_ID_TOKEN_REQUEST_URL: Bearer <request token>
//                                            → {"value": ID token of that request's claims}
//     GitLab, issuer {base}/gitlab (the instance of gitlab_url()):
//       GET /gitlab/.well-known/openid-configuration, GET /gitlab/oauth/discovery/keys
//   Control (for tests in other processes): PUT /_standin/data, GET /_standin/statuses,
//   GET /_standin/posts,
//   GET /_standin/counts, POST /_standin/oidc/sign {"issuer": "github|gitlab", "claims",
//   "kid"?} → {"value": ID token}.
//
// Data (JSON):
//   {"installations": {"77": {"mode": "ok|missing|suspended|error|hang",
//                             "repositories": ["acme/web"]}},
//    "runs": {"acme/web/1001": {"status": "in_progress", "head_sha": "…", "head_branch": "main",
//                               "head_repository": {"full_name": "fork/web"} (a fork's run;
//                               by default the run's own repository)}
//             or {"respond": 502} or {"hang": true}},
//    "statusFailures": 2,        first N status pushes answer 500
//    "statusDelayMs": 0,         every status push waits this long first
//    "postFailures": 1,          first N comment, note and check run calls answer 500
//    "deletedComments": [7],     comment and note ids a person deleted (edits answer 404)
//    "gitlab": {"token": "glpat-…", "projects": {"group/app": 501},
//               "jobs": {"<job token>": {"id": 9, "status": "running", "project_id": 501,
//                                         "sha": "…", "ref": "main"}},
//               "hang": false},
//    "githubOAuth": {"clientId": "…", "clientSecret": "…", "codes": {"<code>": "<token>"},
//                    "users": {"<token>": {"user": {"id", "login", "name"}, "emails": [{email,
//                              primary, verified}], "orgs": [{login}], "teams": [{slug,
//                              organization: {login}}]}}},
//    "oidc": {"keys": ["k1"],        the kids the JWKS publishes
//             "signWith": "k1",      the kid tokens are signed with (default k1)
//             "requests": {"<request token>": {claims: repository, sha, ref, ...}}}}
//   ID tokens carry iss, iat, nbf and exp (now + 5 minutes) unless the claims set them.

#include <Poco/Crypto/RSAKey.h>
#include <Poco/SharedPtr.h>
#include <Poco/ThreadPool.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace Poco::Net {
class HTTPServer;
class HTTPServerRequest;
class HTTPServerResponse;
}  // namespace Poco::Net

namespace loupe::test {

struct StandinOptions {
    std::string app_id = "4242";
    std::string app_public_key_pem;    ///< verifies the App's JWTs
    std::string tls_certificate_file;  ///< with tls_key_file: serve HTTPS
    std::string tls_key_file;
};

class ProviderStandin {
public:
    explicit ProviderStandin(StandinOptions options);
    ~ProviderStandin();
    ProviderStandin(const ProviderStandin&) = delete;
    ProviderStandin& operator=(const ProviderStandin&) = delete;

    int port() const { return port_; }
    /// http://127.0.0.1:PORT, or https://localhost:PORT with TLS.
    std::string base_url() const;
    std::string github_url() const { return base_url() + "/github"; }
    std::string gitlab_url() const { return base_url() + "/gitlab/api/v4"; }

    void set_data(nlohmann::json data);
    void update(const std::function<void(nlohmann::json&)>& change);
    /// Every status pushed so far, in order: {provider, repository, sha, state, description,
    /// context, target_url}.
    nlohmann::json statuses() const;
    /// Every comment, note and check run call that succeeded, in order: {provider, repository,
    /// call (comment_create | comment_edit | note_create | note_edit | check_create |
    /// check_update), number (the pull or merge request; 0 for check runs), id, body (as
    /// sent)}.
    nlohmann::json posts() const;
    /// How many calls of a kind arrived: installation_token, workflow_run, commit_status,
    /// gitlab_job, gitlab_project.
    int count(const std::string& kind) const;

    /// The issuer URL of "github" or "gitlab" ID tokens.
    std::string oidc_issuer(const std::string& kind) const;
    /// An ID token of that issuer with `claims` (over the defaults), signed with `kid`'s key
    /// (default: data's oidc.signWith).
    std::string sign_id_token(const std::string& kind, const nlohmann::json& claims,
                              const std::string& kid = "");

    /// Handles one request (called by the server's threads).
    void handle(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);

private:
    struct Reply {
        int status = 200;
        nlohmann::json body;
    };
    Reply route(const std::string& method, const std::string& path,
                Poco::Net::HTTPServerRequest& request, const std::string& body);
    Reply github(const std::string& method, const std::string& path,
                 Poco::Net::HTTPServerRequest& request, const std::string& body);
    /// GitHub sign-in: the OAuth token exchange and the user API.
    Reply github_sign_in(const std::string& method, const std::string& path,
                         Poco::Net::HTTPServerRequest& request, const std::string& body);
    Reply gitlab(const std::string& method, const std::string& path,
                 Poco::Net::HTTPServerRequest& request, const std::string& body);
    Reply access_token(const std::string& installation, Poco::Net::HTTPServerRequest& request);
    Reply oidc(const std::string& kind, const std::string& path,
               Poco::Net::HTTPServerRequest& request);
    Poco::SharedPtr<Poco::Crypto::RSAKey> oidc_key(const std::string& kid);
    bool verify_app_jwt(const std::string& authorization) const;
    /// The installation an installation token belongs to, if it may see `repository`.
    bool installation_may_see(Poco::Net::HTTPServerRequest& request, const std::string& repository);
    Reply record_status(const std::string& provider, const std::string& repository,
                        const std::string& sha, const std::string& body);
    /// A comment, note or check run call: created (`id` empty) or edited.
    Reply record_post(const std::string& provider, const std::string& repository,
                      const std::string& call, int64_t number, const std::string& id,
                      const std::string& body);
    void hang();
    void counted(const std::string& kind);

    StandinOptions options_;
    /// The server's own threads, ended (and their OpenSSL thread state freed) with it: Poco's
    /// default pool keeps its threads until the process ends, where the leak checker cannot see
    /// what they hold.
    Poco::ThreadPool threads_{1, 16};
    std::unique_ptr<Poco::Net::HTTPServer> server_;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<int> handling_{0};  ///< requests being answered (the destructor waits for them)
    mutable std::mutex mutex_;
    nlohmann::json data_ = nlohmann::json::object();
    nlohmann::json statuses_ = nlohmann::json::array();
    std::map<std::string, int> counts_;
    std::map<std::string, std::string> issued_tokens_;  ///< token → installation id
    int token_serial_ = 0;
    std::map<std::string, Poco::SharedPtr<Poco::Crypto::RSAKey>> oidc_keys_;  ///< by kid
    int status_pushes_ = 0;
    nlohmann::json posts_ = nlohmann::json::array();
    int post_calls_ = 0;
    int64_t post_serial_ = 1000;
    std::map<std::string, std::string> created_posts_;  ///< "provider:id" → repository
};

}  // namespace loupe::test
