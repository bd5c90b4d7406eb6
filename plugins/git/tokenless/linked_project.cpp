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

RunBinding github_run_binding(const WorkflowRun& run) {
    RunBinding binding(run.head_sha);
    const bool merge_queue = run.head_branch && run.head_branch->starts_with("gh-readonly-queue/");
    if (!merge_queue) {
        binding.branch = run.head_branch.value_or("");
    }
    binding.untrusted_head = run.head_is_fork;
    return binding;
}

RunBinding gitlab_job_binding(const GitLabJob& job) {
    RunBinding binding(job.sha);
    if (job.ref.starts_with("refs/merge-requests/")) {
        binding.untrusted_head = true;
    } else {
        binding.branch = job.ref;
    }
    return binding;
}

void bind_to_run(Principal& principal, const RunBinding& binding) {
    principal.bound_commit = binding.commit;
    principal.bound_branch = binding.branch;
    principal.untrusted_head = binding.untrusted_head;
}

Principal tokenless_principal(const Project& project) {
    Principal principal;
    principal.kind = Principal::Kind::project;
    principal.project_id = project.id;
    principal.project_account_id = project.account_id;
    return principal;
}

}  // namespace loupe::git
