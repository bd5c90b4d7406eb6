#include "oidc/ci_oidc_exchange.hpp"

#include "loupe/http/http_error.hpp"
#include "loupe/http/json_reader.hpp"
#include "oidc/oidc_messages.hpp"
#include "store/links.hpp"
#include "tokenless/linked_project.hpp"

namespace loupe::git {

namespace messages = oidc_messages;

namespace {

std::string claim(const Json& claims, const char* name) {
    const auto found = claims.find(name);
    return found != claims.end() && found->is_string() ? found->get<std::string>() : std::string();
}

std::string lower(std::string text) {
    for (auto& c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

}  // namespace

RunBinding github_oidc_binding(const Json& claims) {
    RunBinding binding(claim(claims, "sha"));
    const auto ref = claim(claims, "ref");
    constexpr std::string_view heads = "refs/heads/";
    if (ref.starts_with(heads)) {
        const auto branch = ref.substr(heads.size());
        if (!branch.starts_with("gh-readonly-queue/")) {  // a merge queue names no PR branch
            binding.branch = branch;
        }
    } else if (ref.starts_with("refs/pull/")) {
        const auto head = claim(claims, "head_ref");
        if (!head.empty()) {
            binding.branch = head;
        }
        binding.untrusted_head = true;
    }
    return binding;
}

RunBinding gitlab_oidc_binding(const Json& claims) {
    RunBinding binding(claim(claims, "sha"));
    const auto ref = claim(claims, "ref");
    const auto type = claim(claims, "ref_type");
    if (claim(claims, "pipeline_source") == "merge_request_event" ||
        ref.starts_with("refs/merge-requests/")) {
        binding.untrusted_head = true;
    }
    if ((type.empty() || type == "branch") && !ref.starts_with("refs/")) {
        binding.branch = ref;
    }
    return binding;
}

CiOidcExchange::CiOidcExchange(Database& database, Identity& identity, const HttpClient& http,
                               Logger& log, const GitSettings& settings,
                               std::function<std::string()> public_url)
    : database_(database),
      identity_(identity),
      log_(log),
      github_(http, settings.github_oidc_issuer, std::chrono::milliseconds(settings.timeout_ms)),
      gitlab_(http, settings.gitlab_oidc_issuer, std::chrono::milliseconds(settings.timeout_ms)),
      extra_audiences_(settings.oidc_audiences),
      public_url_(std::move(public_url)),
      short_lived_token_ms_(settings.short_lived_token_ms) {}

std::vector<std::string> CiOidcExchange::audiences() const {
    // The Argos CLI asks for the origin of its API base URL.
    std::vector<std::string> audiences{url_origin(public_url_())};
    audiences.insert(audiences.end(), extra_audiences_.begin(), extra_audiences_.end());
    return audiences;
}

Json CiOidcExchange::verified_claims(OidcIssuer& issuer, const std::string& token,
                                     const std::vector<const char*>& required,
                                     const Wording& wording) {
    const auto checked = issuer.verify(token, audiences());
    if (!checked) {
        if (checked.error().failure == jose::JwtFailure::keys_unavailable) {
            log_.warn("git.oidc_keys_unavailable",
                      {{"issuer", issuer.issuer()}, {"error", checked.error().message}});
            throw HttpError(503, wording.unavailable);
        }
        throw HttpError(401, wording.invalid, {checked.error().message});
    }
    for (const char* name : required) {
        if (claim(checked.claims(), name).empty()) {
            throw HttpError(401, wording.invalid,
                            {std::string(name) + ": the token has no such claim"});
        }
    }
    if (!matches(claim(checked.claims(), "sha"), sha1_pattern)) {
        throw HttpError(401, wording.invalid, {"sha: not a commit SHA"});
    }
    return checked.claims();
}

Project CiOidcExchange::linked_project(Provider provider, const std::string& repository,
                                       const std::optional<int64_t>& gitlab_project_id,
                                       const Wording& wording, bool GitProjectSettings::*enabled) {
    std::vector<RepositoryLink> links;
    {
        auto session = database_.session();
        links = links_to(*session, provider, repository);
    }
    // A link that names its GitLab project's id only takes tokens of that project (a path can
    // be renamed and taken by another project; the id cannot).
    std::erase_if(links, [&](const RepositoryLink& link) {
        return link.gitlab_project_id && link.gitlab_project_id != gitlab_project_id;
    });
    const auto linked =
        choose_linked_project(identity_, links, std::nullopt, {wording.multiple, wording.multiple});
    if (!linked) {
        throw HttpError::unauthorized(wording.no_project);
    }
    bool allowed = false;
    {
        auto session = database_.session();
        allowed = project_settings(*session, linked->project.id).*enabled;
    }
    if (!allowed) {
        throw HttpError::forbidden(wording.disabled);
    }
    return linked->project;
}

Json CiOidcExchange::token_answer(const IssuedToken& issued) const {
    return Json{{"token", issued.token}, {"expiresAt", iso_time(now_ms() + short_lived_token_ms_)}};
}

Json CiOidcExchange::exchange_github(const OidcExchangeInput& input) {
    const Wording wording{messages::invalid_github_token, messages::github_unavailable,
                          messages::no_github_project,    messages::multiple_github_projects,
                          messages::github_disabled,      messages::github_commit_mismatch};
    const auto claims = verified_claims(github_, input.oidc_token, {"repository", "sha"}, wording);
    const auto repository = claim(claims, "repository");
    if (input.repository && lower(*input.repository) != lower(repository)) {
        throw HttpError::unauthorized(messages::github_repository_mismatch);
    }
    const auto project = linked_project(Provider::github, repository, std::nullopt, wording,
                                        &GitProjectSettings::github_actions_oidc_enabled);
    const auto binding = github_oidc_binding(claims);
    if (input.commit && *input.commit != binding.commit) {
        throw HttpError::unauthorized(wording.commit_mismatch);
    }
    return token_answer(
        identity_.issue_short_lived_token(project.id, short_lived_token_ms_, binding));
}

Json CiOidcExchange::exchange_gitlab(const OidcExchangeInput& input) {
    const Wording wording{messages::invalid_gitlab_token, messages::gitlab_unavailable,
                          messages::no_gitlab_project,    messages::multiple_gitlab_projects,
                          messages::gitlab_disabled,      messages::gitlab_commit_mismatch};
    const auto claims =
        verified_claims(gitlab_, input.oidc_token, {"project_path", "project_id", "sha"}, wording);
    std::optional<int64_t> project_id;
    try {
        project_id = std::stoll(claim(claims, "project_id"));
    } catch (const std::exception&) {
        throw HttpError(401, wording.invalid, {"project_id: not a number"});
    }
    const auto project = linked_project(Provider::gitlab, claim(claims, "project_path"), project_id,
                                        wording, &GitProjectSettings::gitlab_ci_oidc_enabled);
    const auto binding = gitlab_oidc_binding(claims);
    if (input.commit && *input.commit != binding.commit) {
        throw HttpError::unauthorized(wording.commit_mismatch);
    }
    // 40 characters, so the job can hand it to the Argos CLI as ARGOS_TOKEN.
    return token_answer(
        identity_.issue_short_lived_cli_token(project.id, short_lived_token_ms_, binding));
}

}  // namespace loupe::git
