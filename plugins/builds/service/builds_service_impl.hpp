#pragma once
// The builds service other plugins look up (loupe/builds/builds_service.hpp), on this plugin's
// store and renderers.

#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"
#include "store/build.hpp"
#include "store/diffs.hpp"

namespace loupe::builds {

class BuildsServiceImpl final : public BuildsService {
public:
    explicit BuildsServiceImpl(Host& host) : host_(host) {}

    std::optional<BuildSummary> find_build(soci::session& session, int64_t project_id,
                                           int64_t number) override;
    std::optional<BuildSummary> find_build_by_id(soci::session& session, int64_t build_id) override;
    std::vector<BuildSummary> find_builds_by_id(soci::session& session,
                                                const std::vector<int64_t>& ids) override;
    std::optional<BuildSummary> lock_build(soci::session& session, int64_t build_id) override;
    std::vector<BuildSummary> branch_builds(soci::session& session, int64_t project_id,
                                            const std::string& name, const std::string& branch,
                                            int limit) override;
    std::vector<DiffSummary> build_diffs(soci::session& session, int64_t build_id) override;
    std::vector<DiffSummary> find_diffs(soci::session& session, int64_t build_id,
                                        const std::vector<int64_t>& diff_ids) override;
    Json build_json(soci::session& session, const BuildSummary& build,
                    const Project& project) override;
    std::vector<Json> builds_json(soci::session& session, const std::vector<BuildSummary>& builds,
                                  const Project& project) override;

private:
    std::vector<DiffSummary> diff_summaries(soci::session& session, int64_t build_id,
                                            const std::vector<DiffRow>& rows);

    Host& host_;
};

}  // namespace loupe::builds
