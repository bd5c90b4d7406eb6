#pragma once
// The builds service other plugins look up (loupe/builds/builds_service.hpp), on this plugin's
// store and renderers.

#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"
#include "service/build_events.hpp"
#include "store/diffs.hpp"

namespace loupe::builds {

class BuildsServiceImpl final : public BuildsService {
public:
    explicit BuildsServiceImpl(Host& host) : host_(host) {
        events_.set_metrics(ProcessingMetrics(host));
    }

    /// The observers this service registers; the plugin's writers notify them.
    const BuildEvents& events() const { return events_; }

    std::optional<BuildSummary> find_build(soci::session& session, int64_t project_id,
                                           int64_t number) override;
    std::optional<BuildSummary> find_build_by_id(soci::session& session, int64_t build_id) override;
    std::optional<BuildSummary> lock_build(soci::session& session, int64_t build_id) override;
    std::vector<BuildSummary> find_builds_by_id(soci::session& session,
                                                const std::vector<int64_t>& ids) override;
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
    void record_review_state(soci::session& session, int64_t build_id,
                             const ReviewState& review) override;
    void observe(BuildObserver observer) override { events_.observe(std::move(observer)); }
    std::vector<BuildActivityRow> build_activity(soci::session& session,
                                                 const std::vector<int64_t>& project_ids,
                                                 int64_t from_ms, int64_t to_ms,
                                                 ActivityBucket bucket) override;
    std::vector<int64_t> account_projects_with_builds(soci::session& session, int64_t account_id,
                                                      int64_t from_ms, int64_t to_ms) override;
    std::optional<int64_t> metrics_period_start(const std::string& period, int64_t now_ms) override;
    std::vector<FlakyTest> flaky_tests(soci::session& session, int64_t project_id, int64_t from_ms,
                                       int64_t now_ms, int limit) override;

private:
    std::vector<BuildSummary> summaries(soci::session& session, const std::vector<Build>& builds);
    std::vector<DiffSummary> diff_summaries(soci::session& session, int64_t build_id,
                                            const std::vector<DiffRow>& rows);

    Host& host_;
    BuildEvents events_;
};

}  // namespace loupe::builds
