#include "github/github_app_client.hpp"

#include <thread>

#include "http/provider_call.hpp"
#include "loupe/jose/jwt.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::git {
namespace {

/// Whether two repository objects of the REST API are the same repository (by id, else by
/// full name). A missing one (a deleted fork) is not the same.
bool same_repository(const Json& a, const Json& b) {
    if (!a.is_object() || !b.is_object()) {
        return false;
    }
    if (a.contains("id") && b.contains("id") && a["id"].is_number_integer() &&
        b["id"].is_number_integer()) {
        return a["id"] == b["id"];
    }
    const auto name = [](const Json& repository) {
        return to_lower(repository.value("full_name", ""));
    };
    return !name(a).empty() && name(a) == name(b);
}

constexpr int64_t token_refresh_margin_ms = 5 * 60 * 1000;
constexpr int64_t jwt_backdate_s = 60;
constexpr int64_t jwt_lifetime_s = 9 * 60;
constexpr int workflow_run_attempts = 3;

std::vector<std::pair<std::string, std::string>> github_headers(const std::string& authorization) {
    return {{"Authorization", authorization},
            {"Accept", "application/vnd.github+json"},
            {"X-GitHub-Api-Version", "2022-11-28"}};
}

bool all_digits(const std::string& text) {
    return !text.empty() && text.size() <= 20 &&
           text.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

GitHubAppClient::GitHubAppClient(const ProviderHttp& http, const GitSettings& settings)
    : http_(http),
      api_url_(settings.github_api_url),
      app_id_(settings.github_app_id),
      timeout_ms_(settings.timeout_ms) {
    if (settings.github_private_key_pem.empty()) {
        return;
    }
    try {
        key_ = jose::SigningKey::from_pem(settings.github_private_key_pem);
    } catch (const std::invalid_argument& error) {
        throw std::runtime_error("github.app_private_key: not an RSA private key in PEM form (" +
                                 std::string(error.what()) + ")");
    }
    if (key_->algorithm() != jose::Algorithm::rs256) {
        throw std::runtime_error(
            "github.app_private_key: not an RSA private key in PEM form "
            "(GitHub Apps sign with RS256)");
    }
}

GitHubAppClient::~GitHubAppClient() = default;

bool GitHubAppClient::configured() const {
    return key_.has_value() && !app_id_.empty();
}

std::string GitHubAppClient::app_jwt() const {
    const auto now_s = now_ms() / 1000;
    // Whole seconds, and the App ID as a number (GitHub also takes the client ID, a string).
    const Json claims{{"iss", all_digits(app_id_) ? Json(std::stoll(app_id_)) : Json(app_id_)},
                      {"iat", now_s - jwt_backdate_s},
                      {"exp", now_s + jwt_lifetime_s}};
    return jose::sign_jwt(claims, *key_);
}

CallResult GitHubAppClient::installation_token(int64_t installation_id, Deadline deadline,
                                               std::string& token) {
    if (!configured()) {
        return failure(Outcome::not_configured,
                       "the GitHub App is not configured (github.app_id, "
                       "github.app_private_key_file)");
    }
    {
        std::lock_guard lock(mutex_);
        auto cached = tokens_.find(installation_id);
        if (cached != tokens_.end() &&
            cached->second.expires_at_ms - now_ms() > token_refresh_margin_ms) {
            token = cached->second.token;
            return {};
        }
    }
    ProviderRequest request;
    request.method = "POST";
    request.url =
        api_url_ + "/app/installations/" + std::to_string(installation_id) + "/access_tokens";
    request.headers = github_headers("Bearer " + app_jwt());
    auto reply = http_.call(request, deadline);
    if (reply.result.http_status == 404 || reply.result.http_status == 403) {
        reply.result.outcome = Outcome::not_installed;  // removed, or suspended
        return reply.result;
    }
    if (!reply.result.ok()) {
        return reply.result;
    }
    const auto& body = reply.body;
    std::optional<int64_t> expires_at;
    if (body.is_object() && body.contains("expires_at") && body["expires_at"].is_string()) {
        expires_at = parse_iso_time(body["expires_at"].get<std::string>());
    }
    if (!body.is_object() || !body.contains("token") || !body["token"].is_string() || !expires_at) {
        return failure(Outcome::unavailable,
                       request.url + " answered without a token and its expiry");
    }
    token = body["token"].get<std::string>();
    std::lock_guard lock(mutex_);
    tokens_[installation_id] = CachedToken{token, *expires_at};
    return {};
}

void GitHubAppClient::forget_token(int64_t installation_id, const std::string& token) {
    std::lock_guard lock(mutex_);
    auto cached = tokens_.find(installation_id);
    if (cached != tokens_.end() && cached->second.token == token) {
        tokens_.erase(cached);
    }
}

ProviderReply GitHubAppClient::call(int64_t installation_id, const std::string& method,
                                    const std::string& path, const Json& body, Deadline deadline) {
    ProviderReply reply;
    // A cached token GitHub no longer accepts (revoked) is dropped and fetched once more.
    for (int attempt = 0; attempt < 2; ++attempt) {
        std::string token;
        reply.result = installation_token(installation_id, deadline, token);
        if (!reply.result.ok()) {
            return reply;
        }
        ProviderRequest request;
        request.method = method;
        request.url = api_url_ + path;
        request.headers = github_headers("Bearer " + token);
        if (!body.is_null()) {
            request.body = body.dump();
        }
        reply = http_.call(request, deadline);
        if (reply.result.http_status != 401) {
            return reply;
        }
        forget_token(installation_id, token);
    }
    return reply;
}

ProviderReply GitHubAppClient::call(int64_t installation_id, const std::string& method,
                                    const std::string& path, const Json& body) {
    return call(installation_id, method, path, body, deadline_in(timeout_ms_));
}

CallResult GitHubAppClient::workflow_run(int64_t installation_id, const std::string& owner,
                                         const std::string& repo, const std::string& run_id,
                                         WorkflowRun& run, Deadline deadline) {
    if (!all_digits(run_id)) {
        return failure(Outcome::not_found, "run id \"" + run_id + "\" is not a number");
    }
    const auto path = "/repos/" + url_path_segment(owner) + "/" + url_path_segment(repo) +
                      "/actions/runs/" + run_id;
    ProviderReply reply;
    for (int attempt = 1; attempt <= workflow_run_attempts; ++attempt) {
        reply = call(installation_id, "GET", path, nullptr, deadline);
        if (reply.result.outcome != Outcome::unavailable || reply.result.http_status == 0 ||
            attempt == workflow_run_attempts) {
            break;
        }
        // A 5xx: ask again after a short pause, if the budget leaves room for it.
        const auto pause = std::chrono::milliseconds(100 * attempt);
        if (Clock::now() + 2 * pause >= deadline) {
            break;
        }
        std::this_thread::sleep_for(pause);
    }
    if (!reply.result.ok()) {
        return reply.result;
    }
    const auto& body = reply.body;
    if (!body.is_object() || !body.contains("head_sha") || !body["head_sha"].is_string()) {
        return failure(Outcome::unavailable, "GitHub answered a workflow run without head_sha");
    }
    run.status = body.contains("status") && body["status"].is_string()
                     ? body["status"].get<std::string>()
                     : "";
    run.head_sha = body["head_sha"].get<std::string>();
    run.head_branch.reset();
    if (body.contains("head_branch") && body["head_branch"].is_string()) {
        run.head_branch = body["head_branch"].get<std::string>();
    }
    run.head_is_fork =
        !same_repository(body.value("repository", Json()), body.value("head_repository", Json()));
    return {};
}

CallResult GitHubAppClient::workflow_run(int64_t installation_id, const std::string& owner,
                                         const std::string& repo, const std::string& run_id,
                                         WorkflowRun& run) {
    return workflow_run(installation_id, owner, repo, run_id, run, deadline_in(timeout_ms_));
}

CallResult GitHubAppClient::create_commit_status(int64_t installation_id, const std::string& owner,
                                                 const std::string& repo,
                                                 const CommitStatus& status) {
    const Json body{{"state", status.state},
                    {"description", status.description},
                    {"context", status.context},
                    {"target_url", status.target_url}};
    return call(installation_id, "POST",
                "/repos/" + url_path_segment(owner) + "/" + url_path_segment(repo) + "/statuses/" +
                    url_path_segment(status.sha),
                body)
        .result;
}

}  // namespace loupe::git
