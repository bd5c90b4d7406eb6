#include "processing/process_build.hpp"

#include <soci/soci.h>

#include "processing/baseline.hpp"
#include "processing/conclude.hpp"
#include "processing/pairing.hpp"
#include "store/diffs.hpp"

namespace loupe::builds {
namespace {

void create_diffs(soci::session& session, JobQueue& jobs, const Build& build,
                  const std::vector<PlannedDiff>& plan) {
    const int64_t now = now_ms();
    for (const auto& planned : plan) {
        DiffRow diff;
        diff.build_id = build.id;
        diff.created_at = now;
        if (planned.base) {
            diff.base_screenshot_id = planned.base->id;
        }
        if (planned.head) {
            diff.head_screenshot_id = planned.head->id;
        }
        diff.test_id = planned.head ? planned.head->test_id : planned.base->test_id;
        diff.job_status = planned.needs_compute ? "pending" : "complete";
        diff.score = planned.score;
        const int64_t id = insert_diff(session, diff);
        if (planned.needs_compute) {
            jobs.enqueue(session, compute_diff_job_kind,
                         Json{{"diffId", id}, {"buildId", build.id}});
        }
    }
}

}  // namespace

void process_build(Host& host, int64_t build_id) {
    std::optional<Project> project;
    {
        auto session = host.db().session();
        auto build = find_build(*session, host.db().dialect(), build_id);
        if (!build || build->job_status != "pending") {
            return;  // gone, or already processed by an earlier run of this job
        }
        project = host.identity().find_project(build->project_id);
        if (!project) {
            return;
        }
    }
    host.db().transaction([&](soci::session& session) {
        auto build = find_build(session, host.db().dialect(), build_id, true);
        if (!build || build->job_status != "pending") {
            return;
        }
        if (build->type == "skipped") {
            build->job_status = "complete";
            try_conclude(session, *build);
            return;
        }
        auto choice = choose_baseline(session, *build, *project);
        build->type = build_type(*build, *project, choice.build.has_value());
        build->base_build_id =
            choice.build ? std::optional<int64_t>(choice.build->id) : std::nullopt;
        build->baseline_reason = choice.reason;

        session << "DELETE FROM screenshot_diffs WHERE build_id = :b", soci::use(build->id);
        const auto head = build_screenshots(session, build->id);
        std::vector<Screenshot> baseline;
        if (choice.build) {
            baseline = build_screenshots(session, choice.build->id);
        }
        create_diffs(session, host.jobs(), *build,
                     pair_screenshots(head, choice.build ? &baseline : nullptr));
        build->job_status = "complete";
        update_build_state(session, *build);
        try_conclude(session, *build);
    });
}

void fail_build_processing(Host& host, int64_t build_id) {
    host.db().transaction([&](soci::session& session) {
        auto build = find_build(session, host.db().dialect(), build_id, true);
        if (build && (build->job_status == "pending" || build->job_status == "progress")) {
            build->job_status = "error";
            update_build_state(session, *build);
        }
    });
}

}  // namespace loupe::builds
