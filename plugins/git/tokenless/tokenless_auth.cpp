#include "tokenless/tokenless_auth.hpp"

#include "loupe/crypto/digest.hpp"
#include "loupe/http/http_error.hpp"
#include "store/links.hpp"
#include "store/project_settings.hpp"
#include "tokenless/tokenless_messages.hpp"

namespace loupe::git {

namespace messages = tokenless_messages;

namespace {

/// Verified bearers kept at most (a flood of distinct tokens pushes the oldest out).
constexpr std::size_t max_verified_tokens = 10'000;

std::string key_of(const std::string& token) {
    return crypto::sha256_hex(token);
}

}  // namespace

TokenlessAuth::TokenlessAuth(Database& database, Identity& identity, GitHubAppClient& github,
                             GitLabApiClient& gitlab, Logger& log, const GitSettings& settings)
    : database_(database),
      identity_(identity),
      github_(database, identity, github, log, settings.timeout_ms),
      gitlab_(database, identity, gitlab, log, settings.timeout_ms),
      verified_({.ttl = std::chrono::milliseconds(settings.tokenless_cache_ms),
                 .capacity = max_verified_tokens}),
      short_lived_token_ms_(settings.short_lived_token_ms) {}

bool TokenlessAuth::enabled(int64_t project_id) {
    auto session = database_.session();
    return tokenless_auth_enabled(*session, project_id);
}

std::optional<Principal> TokenlessAuth::cached(const std::string& token) {
    auto principal = verified_.find(key_of(token));
    if (!principal) {
        return std::nullopt;
    }
    bool linked = false;
    bool allowed = false;
    {
        auto session = database_.session();
        linked = find_link(*session, principal->project_id).has_value();
        allowed = tokenless_auth_enabled(*session, principal->project_id);
    }
    if (!linked) {
        verified_.forget(key_of(token));  // unlinked since: verify from the start again
        return std::nullopt;
    }
    if (!allowed) {
        throw HttpError::forbidden(messages::bearer_disabled);
    }
    return principal;
}

Principal TokenlessAuth::github_bearer(const std::string& token) {
    if (auto principal = cached(token)) {
        return *principal;
    }
    return verified_.get(key_of(token), [&] {
        auto context = github_.resolve(token);
        if (!context) {
            throw HttpError::unauthorized(messages::project_not_found(token));
        }
        if (!enabled(context->linked.project.id)) {
            throw HttpError::forbidden(messages::bearer_disabled);
        }
        auto principal = tokenless_principal(context->linked.project);
        bind_to_run(principal, github_run_binding(context->run));
        return principal;
    });
}

Principal TokenlessAuth::gitlab_bearer(const std::string& token) {
    if (auto principal = cached(token)) {
        return *principal;
    }
    return verified_.get(key_of(token), [&] {
        auto context = gitlab_.resolve(token);
        if (!context) {
            throw HttpError::unauthorized(messages::gitlab_project_not_found);
        }
        if (!enabled(context->linked.project.id)) {
            throw HttpError::forbidden(messages::bearer_disabled);
        }
        auto principal = tokenless_principal(context->linked.project);
        bind_to_run(principal, gitlab_job_binding(context->job));
        return principal;
    });
}

int64_t TokenlessAuth::exchange_project(const ExchangeFacts& facts,
                                        const ExchangeWording& wording) {
    if (!facts.project_id) {
        throw HttpError::unauthorized(wording.no_project);
    }
    if (!enabled(*facts.project_id)) {
        throw HttpError::forbidden(messages::exchange_disabled);
    }
    if (!facts.commit_matches) {
        throw HttpError::unauthorized(wording.commit_mismatch);
    }
    if (!facts.branch_matches) {
        throw HttpError::unauthorized(wording.branch_mismatch);
    }
    return *facts.project_id;
}

Json TokenlessAuth::token_answer(const IssuedToken& issued) const {
    return Json{{"token", issued.token}, {"expiresAt", iso_time(now_ms() + short_lived_token_ms_)}};
}

Json TokenlessAuth::exchange_github(const std::string& token, const std::string& commit,
                                    const std::string& branch) {
    const auto context = github_.resolve(token);
    ExchangeFacts facts;
    if (context) {
        facts = {context->linked.project.id, context->run.head_sha == commit,
                 context->run.head_branch == branch};
    }
    const auto project_id =
        exchange_project(facts, {messages::no_github_project, messages::github_commit_mismatch,
                                 messages::github_branch_mismatch});
    return token_answer(identity_.issue_short_lived_token(project_id, short_lived_token_ms_,
                                                          github_run_binding(context->run)));
}

Json TokenlessAuth::exchange_gitlab(const std::string& token, const std::string& commit,
                                    const std::string& branch) {
    const auto context = gitlab_.resolve(token);
    ExchangeFacts facts;
    if (context) {
        // A merge-request pipeline runs on refs/merge-requests/<iid>/head while the job's
        // CI_COMMIT_REF_NAME is the source branch: there only the commit can be matched.
        const auto& ref = context->job.ref;
        facts = {context->linked.project.id, context->job.sha == commit,
                 ref == branch || ref.starts_with("refs/merge-requests/")};
    }
    const auto project_id =
        exchange_project(facts, {messages::no_gitlab_project, messages::gitlab_commit_mismatch,
                                 messages::gitlab_branch_mismatch});
    // 40 characters, so the job can hand it to the Argos CLI as ARGOS_TOKEN; bound to the commit.
    return token_answer(identity_.issue_short_lived_cli_token(project_id, short_lived_token_ms_,
                                                              gitlab_job_binding(context->job)));
}

}  // namespace loupe::git
