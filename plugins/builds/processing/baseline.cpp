#include "processing/baseline.hpp"

#include <fnmatch.h>

#include <map>

#include "store/merged_pull_requests.hpp"

namespace loupe::builds {
namespace {

// Intrinsic eligibility: same project, name and mode, processed, not a subset, not skipped,
// every screenshot received, a passing (or absent) test report, not rejected by a review, and
// not from a fork's CI run unless a review accepted it.
Query eligible(int64_t project_id, const std::string& name, BuildMode mode, int64_t exclude_id) {
    Query query;
    query.where("project_id = ?", {project_id})
        .where("name = ?", {name})
        .where("mode = ?", {std::string(to_text(mode))})
        .where("job_status = 'complete' AND subset = 0 AND complete = 1 AND valid = 1")
        .where("type IS NULL OR type <> 'skipped'")
        .where("review_state IS NULL OR review_state <> 'rejected'")
        // A build a fork's CI run sent is a baseline only once a review accepted it: its
        // commit is not one the git provider vouched for (a pull request run builds a merge
        // commit of the fork's head).
        .where("untrusted_head = 0 OR review_state = 'accepted'")
        .where("id <> ?", {exclude_id});
    return query;
}

// Approved: references and orphans are approved by nature, checks by an accepted review or,
// when the project says so, by their pull request having been merged (a squash or rebase merge
// leaves no reference build at the pull request's commits).
Query& approved(Query& query, const ApprovalRules& rules) {
    if (rules.merged_pull_requests) {
        return query.where(
            std::string("type IN ('reference', 'orphan') OR (type = 'check' AND (review_state = "
                        "'accepted' OR (") +
            merged_pull_request_condition + ")))");
    }
    return query.where(
        "type IN ('reference', 'orphan') OR (type = 'check' AND review_state = "
        "'accepted')");
}

// A monitoring build is a baseline only once a review accepted it.
Query& accepted(Query& query) {
    return query.where("review_state = 'accepted'");
}

std::optional<Build> most_recent(soci::session& session, const Query& query) {
    auto builds = find_builds(session, query, "ORDER BY id DESC LIMIT 1");
    if (builds.empty()) {
        return std::nullopt;
    }
    return std::move(builds.front());
}

std::string in_list(const std::vector<std::string>& values, std::vector<QueryValue>& bound) {
    std::string placeholders;
    for (const auto& value : values) {
        placeholders += placeholders.empty() ? "?" : ", ?";
        bound.emplace_back(value);
    }
    return placeholders;
}

// The eligible build whose commit comes first in `commits`, most recent on ties.
std::optional<Build> first_in_commit_order(soci::session& session, Query query,
                                           const std::vector<std::string>& commits) {
    if (commits.empty()) {
        return std::nullopt;
    }
    std::vector<QueryValue> bound;
    const auto placeholders = in_list(commits, bound);
    query.where("commit_sha IN (" + placeholders + ")", std::move(bound));
    std::map<std::string, Build> latest_by_commit;
    for (auto& build : find_builds(session, query, "ORDER BY id DESC")) {
        latest_by_commit.try_emplace(build.commit, std::move(build));
    }
    for (const auto& commit : commits) {
        if (auto it = latest_by_commit.find(commit); it != latest_by_commit.end()) {
            return it->second;
        }
    }
    return std::nullopt;
}

std::vector<std::string> commit_list(const Json& commits) {
    std::vector<std::string> list;
    if (commits.is_array()) {
        for (const auto& commit : commits) {
            if (commit.is_string()) {
                list.push_back(commit.get<std::string>());
            }
        }
    }
    return list;
}

BaselineChoice ci_baseline(soci::session& session, const Build& build, const Project& project,
                           const ApprovalRules& rules) {
    const std::string& auto_approve = rules.auto_approve;
    // Base branch: the build's referenceBranch; none when only a referenceCommit was given;
    // else the project's default base branch (no provider knows a pull request's base here).
    std::optional<std::string> base_branch = build.reference_branch;
    if (!base_branch && !build.reference_commit) {
        base_branch = project.default_base_branch;
    }
    const auto& merge_base = build.reference_commit;
    if (merge_base && *merge_base != build.commit) {
        auto query = eligible(build.project_id, build.name, build.mode, build.id);
        query.where("commit_sha = ? OR pr_head_commit = ?", {*merge_base, *merge_base});
        const bool approval_needed =
            !base_branch || !branch_matches_glob(auto_approve, *base_branch);
        if (approval_needed) {
            approved(query, rules);
        }
        if (auto found = most_recent(session, query)) {
            return {std::move(found), "merge-base", std::nullopt};
        }
    }
    auto ancestors = commit_list(build.parent_commits);
    if (!ancestors.empty()) {
        ancestors.erase(ancestors.begin());  // the starting commit itself
        auto query = eligible(build.project_id, build.name, build.mode, build.id);
        if (auto found = first_in_commit_order(session, query, ancestors)) {
            return {std::move(found), "ancestor", std::nullopt};
        }
    }
    {
        auto query = eligible(build.project_id, build.name, build.mode, build.id);
        approved(query, rules).where("commit_sha = ? AND branch = ?", {build.commit, build.branch});
        if (auto found = most_recent(session, query)) {
            return {std::move(found), "same-commit", std::nullopt};
        }
    }
    // An SDK that sends no git history at all (no referenceCommit, no parentCommits): Argos
    // would ask the git provider; Loupe has none and compares with the latest approved build
    // of the base branch instead of leaving the build orphan forever.
    if (!build.reference_commit && commit_list(build.parent_commits).empty() && base_branch &&
        *base_branch != build.branch) {
        auto query = eligible(build.project_id, build.name, build.mode, build.id);
        approved(query, rules).where("branch = ?", {*base_branch});
        if (auto found = most_recent(session, query)) {
            return {std::move(found), "base-branch", std::nullopt};
        }
    }
    return {std::nullopt, "no-eligible-build", std::nullopt};
}

// How `build` counts as approved, in the order the rules grant it.
std::optional<std::string> approval_of(soci::session& session, const Build& build,
                                       const ApprovalRules& rules) {
    if (build.type == BuildType::reference) {
        return "reference";
    }
    if (build.type == BuildType::orphan) {
        return "orphan";
    }
    if (build.review_state == ReviewState::accepted) {
        return "review";
    }
    if (rules.merged_pull_requests && build.type == BuildType::check && build.pr_number &&
        is_merged_pull_request(session, build.project_id, *build.pr_number)) {
        return "merged-pull-request";
    }
    return std::nullopt;
}

}  // namespace

std::string auto_approve_glob(const BuildSettings& settings, const Project& project) {
    if (settings.auto_approved_branch_glob && !settings.auto_approved_branch_glob->empty()) {
        return *settings.auto_approved_branch_glob;
    }
    return project.default_base_branch;
}

bool branch_matches_glob(const std::string& glob, const std::string& branch) {
    // fnmatch with FNM_PATHNAME keeps `*` inside one path segment, as minimatch does; `**`
    // (any depth) is handled by also trying the pattern without the path restriction.
    if (glob.find("**") != std::string::npos) {
        return fnmatch(glob.c_str(), branch.c_str(), 0) == 0;
    }
    return fnmatch(glob.c_str(), branch.c_str(), FNM_PATHNAME) == 0;
}

BuildType build_type(const Build& build, const std::string& auto_approve, bool has_baseline) {
    if (build.type == BuildType::skipped) {
        return BuildType::skipped;
    }
    if (build.mode == BuildMode::ci && !build.pr_number &&
        branch_matches_glob(auto_approve, build.branch)) {
        return BuildType::reference;
    }
    return has_baseline ? BuildType::check : BuildType::orphan;
}

ApprovalRules approval_rules(const BuildSettings& settings, const Project& project) {
    return {auto_approve_glob(settings, project), settings.merged_pull_request_approval};
}

BaselineChoice choose_baseline(soci::session& session, const Build& build, const Project& project,
                               const ApprovalRules& rules) {
    BaselineChoice choice;
    if (build.mode == BuildMode::monitoring) {
        auto query = eligible(build.project_id, build.name, build.mode, build.id);
        choice = {most_recent(session, accepted(query)), "monitoring", std::nullopt};
    } else {
        choice = ci_baseline(session, build, project, rules);
    }
    if (!choice.build) {
        choice.reason = "no-eligible-build";
        return choice;
    }
    choice.approval = approval_of(session, *choice.build, rules);
    return choice;
}

std::optional<Build> find_eligible_baseline(soci::session& session, int64_t project_id,
                                            const std::vector<std::string>& commits,
                                            const std::string& name, BuildMode mode,
                                            const ApprovalRules& rules) {
    auto query = eligible(project_id, name, mode, 0);
    return first_in_commit_order(
        session, mode == BuildMode::monitoring ? accepted(query) : approved(query, rules), commits);
}

}  // namespace loupe::builds
