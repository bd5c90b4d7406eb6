#include "build_resources.hpp"

#include <set>

#include "store/diffs.hpp"

namespace loupe::builds {

std::vector<int64_t> builds_awaiting_diffs(const std::vector<Build>& builds) {
    std::vector<int64_t> ids;
    for (const auto& build : builds) {
        if (build.job_status == ProcessingState::complete && !build.conclusion) {
            ids.push_back(build.id);
        }
    }
    return ids;
}

StatusInputs status_inputs(const Build& build, const std::set<int64_t>& builds_with_failed_diff,
                           int64_t now) {
    StatusInputs inputs;
    inputs.now_ms = now;
    inputs.diff_job_failed = builds_with_failed_diff.contains(build.id);
    return inputs;
}

std::vector<Json> render_builds(soci::session& session, const std::vector<Build>& builds,
                                const Project& project, const std::string& public_url) {
    std::vector<int64_t> baseline_ids;
    for (const auto& build : builds) {
        if (build.base_build_id) {
            baseline_ids.push_back(*build.base_build_id);
        }
    }
    const auto baselines = find_builds_by_id(session, baseline_ids);
    const auto failed = builds_with_failed_diffs(session, builds_awaiting_diffs(builds));
    const int64_t now = now_ms();
    std::vector<Json> rendered;
    rendered.reserve(builds.size());
    for (const auto& build : builds) {
        const Build* baseline = nullptr;
        if (build.base_build_id) {
            if (auto it = baselines.find(*build.base_build_id); it != baselines.end()) {
                baseline = &it->second;
            }
        }
        rendered.push_back(
            build_json(build, project, public_url, baseline, status_inputs(build, failed, now)));
    }
    return rendered;
}

Json render_build(soci::session& session, const Build& build, const Project& project,
                  const std::string& public_url) {
    return std::move(render_builds(session, {build}, project, public_url).front());
}

}  // namespace loupe::builds
