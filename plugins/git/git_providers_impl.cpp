#include "git_providers_impl.hpp"

#include "http/provider_call.hpp"
#include "store/links.hpp"

namespace loupe::git {

GitProvidersImpl::GitProvidersImpl(const GitSettings& settings)
    : http_(settings), github_(http_, settings), gitlab_(http_, settings) {}

std::optional<RepositoryLink> GitProvidersImpl::find_link(soci::session& session,
                                                          int64_t project_id) {
    return git::find_link(session, project_id);
}

CallResult GitProvidersImpl::push_commit_status(const RepositoryLink& link,
                                                const CommitStatus& status) {
    if (link.provider == Provider::gitlab) {
        return gitlab_.create_commit_status(link, status);
    }
    if (!link.installation_id) {
        return failure(Outcome::not_installed,
                       "the link of " + link.repository + " names no GitHub App installation");
    }
    const auto [owner, name] = split_repository(link.repository);
    return github_.create_commit_status(*link.installation_id, owner, name, status);
}

std::pair<std::string, std::string> split_repository(const std::string& repository) {
    const auto slash = repository.find('/');
    if (slash == std::string::npos) {
        return {repository, ""};
    }
    return {repository.substr(0, slash), repository.substr(slash + 1)};
}

}  // namespace loupe::git
