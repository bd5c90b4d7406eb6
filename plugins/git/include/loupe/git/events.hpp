#pragma once
// The events the git plugin publishes (loupe/events/events.hpp), each in the transaction of the
// webhook delivery that reported it, once per project linked to the repository.
//
//   pull_request.opened  a pull request (GitHub) or merge request (GitLab) of the repository's
//                        own branch was opened or reopened: what was staged on that branch for
//                        it (media) can join it

#include <cstdint>
#include <string>

#include "loupe/events/events.hpp"
#include "loupe/json.hpp"

namespace loupe::git {

struct PullRequestOpened {
    static constexpr const char* event_type = "pull_request.opened";
    static constexpr int event_version = 1;
    int64_t project_id = 0;
    int64_t pr_number = 0;  ///< GitHub's number, GitLab's merge request iid
    std::string branch;     ///< the head (source) branch
};

inline void to_json(Json& json, const PullRequestOpened& event) {
    json = Json{
        {"projectId", event.project_id}, {"prNumber", event.pr_number}, {"branch", event.branch}};
}
inline void from_json(const Json& json, PullRequestOpened& event) {
    event.project_id = json.at("projectId").get<int64_t>();
    event.pr_number = json.at("prNumber").get<int64_t>();
    event.branch = json.at("branch").get<std::string>();
}

}  // namespace loupe::git
