#pragma once
// builds.PullRequestMerges: the git plugin tells which pull requests were merged.

#include "loupe/builds/pull_request_merges.hpp"
#include "store/merged_pull_requests.hpp"

namespace loupe::builds {

class PullRequestMergesImpl final : public PullRequestMerges {
public:
    bool record_merged(soci::session& session, int64_t project_id, int64_t pr_number,
                       int64_t merged_at) override {
        return insert_merged_pull_request(session, project_id, pr_number, merged_at);
    }
};

}  // namespace loupe::builds
