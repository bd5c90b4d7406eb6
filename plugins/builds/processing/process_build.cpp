#include "processing/process_build.hpp"

#include <soci/soci.h>

#include <map>
#include <stdexcept>

#include "loupe/imagediff/imagediff.hpp"
#include "processing/baseline.hpp"
#include "processing/conclude.hpp"
#include "processing/pairing.hpp"
#include "store/diffs.hpp"
#include "store/settings.hpp"
#include "store/test_stats.hpp"

namespace loupe::builds {
namespace {

// Dimensions read from the first bytes of each image file the build does not know the size of,
// outside any transaction: an added screenshot then needs no diff job at all. A file whose
// header cannot be read is left to the diff job, which decodes it (and reports why it fails).
std::map<std::string, imagediff::ImageSize> read_image_sizes(BlobStore& blobs,
                                                             const std::vector<StoredFile>& files) {
    std::map<std::string, imagediff::ImageSize> sizes;
    for (const auto& file : files) {
        if (!is_image_content_type(file.content_type)) {
            continue;
        }
        auto prefix = blobs.read_prefix(file.key, imagediff::image_size_prefix_bytes);
        if (!prefix) {
            continue;
        }
        const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(prefix->data()),
                                             prefix->size());
        if (auto size = imagediff::read_image_size(bytes)) {
            sizes.emplace(file.key, *size);
        }
    }
    return sizes;
}

std::vector<Screenshot> apply_sizes(std::vector<Screenshot>& head,
                                    const std::map<std::string, imagediff::ImageSize>& sizes) {
    std::vector<Screenshot> sized;
    for (auto& screenshot : head) {
        auto it = sizes.find(screenshot.key);
        if ((!screenshot.width || !screenshot.height) && it != sizes.end()) {
            screenshot.width = it->second.width;
            screenshot.height = it->second.height;
            sized.push_back(screenshot);
        }
    }
    return sized;
}

void create_diffs(soci::session& session, JobQueue& jobs, const Build& build,
                  const std::vector<PlannedDiff>& plan) {
    const int64_t now = now_ms();
    std::vector<DiffRow> rows;
    std::vector<int64_t> counted_tests;
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
        diff.job_status =
            planned.needs_compute ? ProcessingState::pending : ProcessingState::complete;
        diff.score = planned.score;
        // An added screenshot completed here counts for its test as the diff job would have.
        if (!planned.base && planned.head && !planned.needs_compute && diff.test_id &&
            build.type == BuildType::reference) {
            counted_tests.push_back(*diff.test_id);
        }
        rows.push_back(std::move(diff));
    }
    const auto ids = insert_build_diffs(session, build.id, rows);
    bump_build_counters(session, counted_tests, now);
    for (std::size_t i = 0; i < plan.size(); ++i) {
        if (plan[i].needs_compute) {
            jobs.enqueue(session, compute_diff_job_kind,
                         Json{{"diffId", ids[i]}, {"buildId", build.id}});
        }
    }
}

}  // namespace

void process_build(Host& host, const BuildEvents& events, int64_t build_id) {
    std::optional<Project> project;
    std::vector<StoredFile> unsized_files;
    {
        auto session = host.db().session();
        auto build = find_build(*session, host.db().dialect(), build_id);
        if (!build || build->job_status != ProcessingState::pending) {
            return;  // gone, or already processed by an earlier run of this job
        }
        project = host.identity().find_project(build->project_id);
        if (!project) {
            return;
        }
        unsized_files = files_without_dimensions(*session, build_id);
    }
    const auto sizes = read_image_sizes(host.blobs(), unsized_files);
    std::optional<Build> concluded;
    host.db().transaction([&](soci::session& session) {
        concluded.reset();
        auto build = find_build(session, host.db().dialect(), build_id, true);
        if (!build || build->job_status != ProcessingState::pending) {
            return;
        }
        if (build->type == BuildType::skipped) {
            build->job_status = ProcessingState::complete;
            if (try_conclude(session, *build, events)) {
                concluded = *build;
            }
            return;
        }
        const auto rules = approval_rules(build_settings_of(session, project->id), *project);
        auto choice = choose_baseline(session, *build, *project, rules);
        // Retention may be deleting that (old) build right now: locking it makes one of the two
        // wait for the other. Pruned first: this attempt fails and the retry chooses again;
        // locked first: the prune sees this build use it, and keeps it.
        if (choice.build && !find_build(session, host.db().dialect(), choice.build->id, true)) {
            throw std::runtime_error("the chosen baseline build was just pruned");
        }
        build->type = build_type(*build, rules.auto_approve, choice.build.has_value());
        build->base_build_id =
            choice.build ? std::optional<int64_t>(choice.build->id) : std::nullopt;
        build->baseline_reason = choice.reason;
        build->baseline_approval = choice.approval;

        delete_build_diffs(session, build->id);
        // Pairing needs names, files and sizes, not the metadata.
        auto head = build_screenshots(session, build->id, ScreenshotFields::without_metadata);
        set_screenshot_dimensions(session, apply_sizes(head, sizes));
        std::vector<Screenshot> baseline;
        if (choice.build) {
            baseline =
                build_screenshots(session, choice.build->id, ScreenshotFields::without_metadata);
        }
        create_diffs(session, host.jobs(), *build,
                     pair_screenshots(head, choice.build ? &baseline : nullptr));
        build->job_status = ProcessingState::complete;
        update_build_state(session, *build);
        if (try_conclude(session, *build, events)) {
            concluded = *build;
        }
    });
    if (concluded) {
        events.metrics().build_concluded(*concluded);
    }
}

void fail_build_processing(Host& host, const BuildEvents& events, int64_t build_id) {
    host.db().transaction([&](soci::session& session) {
        auto build = find_build(session, host.db().dialect(), build_id, true);
        if (build && (build->job_status == ProcessingState::pending ||
                      build->job_status == ProcessingState::progress)) {
            build->job_status = ProcessingState::error;
            update_build_state(session, *build);
            events.publish(session, BuildEvent::failed, *build);
        }
    });
}

}  // namespace loupe::builds
