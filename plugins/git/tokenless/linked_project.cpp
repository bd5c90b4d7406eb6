#include "tokenless/linked_project.hpp"

#include "loupe/http/http_error.hpp"

namespace loupe::git {

std::optional<LinkedProject> choose_linked_project(Identity& identity,
                                                   const std::vector<RepositoryLink>& links,
                                                   const std::optional<std::string>& slug,
                                                   const ChoiceMessages& messages) {
    std::vector<LinkedProject> linked;
    for (const auto& link : links) {
        if (auto project = identity.find_project(link.project_id)) {
            linked.push_back({std::move(*project), link});
        }
    }
    if (linked.empty()) {
        return std::nullopt;
    }
    if (slug) {
        for (auto& candidate : linked) {
            if (candidate.project.account_slug + "/" + candidate.project.name == *slug) {
                return std::move(candidate);
            }
        }
        throw HttpError::bad_request(messages.slug_not_found);
    }
    if (linked.size() > 1) {
        throw HttpError::bad_request(messages.multiple);
    }
    return std::move(linked.front());
}

Principal tokenless_principal(const Project& project) {
    Principal principal;
    principal.kind = Principal::Kind::project;
    principal.project_id = project.id;
    principal.project_account_id = project.account_id;
    return principal;
}

}  // namespace loupe::git
