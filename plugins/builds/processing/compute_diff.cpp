#include "processing/compute_diff.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <chrono>

#include "loupe/imagediff/imagediff.hpp"
#include "processing/conclude.hpp"
#include "processing/worker_engine.hpp"
#include "store/diffs.hpp"
#include "store/ignored_changes.hpp"
#include "store/screenshots.hpp"
#include "store/settings.hpp"
#include "store/test_masks.hpp"
#include "store/test_stats.hpp"

namespace loupe::builds {
namespace {

bool is_image(const Screenshot& screenshot) {
    return is_image_content_type(screenshot.content_type);
}

struct Dimensions {
    int64_t width = 0, height = 0;
};

struct Computed {
    std::optional<double> score;
    std::optional<std::string> mask_key;
    std::optional<std::string> fingerprint;
    std::optional<Dimensions> base_size, head_size;
};

std::string blob_bytes(BlobStore& blobs, const std::string& key) {
    auto bytes = blobs.read(key);
    if (!bytes) {
        throw std::runtime_error("blob " + key + " is missing from the store");
    }
    return std::move(*bytes);
}

// A mask's side as the engine takes it: 32 bits hold more than any image's side.
constexpr int64_t max_region_side = 0xffffffff;

/// A test's masks as the engine's ignore regions.
std::vector<imagediff::IgnoreRegion> ignore_regions_of(const std::vector<TestMask>& masks) {
    const auto side = [](int64_t value) {
        return static_cast<uint32_t>(std::clamp<int64_t>(value, 0, max_region_side));
    };
    std::vector<imagediff::IgnoreRegion> regions;
    regions.reserve(masks.size());
    for (const TestMask& mask : masks) {
        regions.push_back(imagediff::IgnoreRegion{side(mask.x), side(mask.y), side(mask.width),
                                                  side(mask.height)});
    }
    return regions;
}

std::span<const uint8_t> as_bytes(const std::string& text) {
    return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

/// The first bytes and the size of a stored file, for the memory estimate.
struct FilePrefix {
    std::string prefix;
    uint64_t size = 0;
    StoredImage image() const { return {as_bytes(prefix), size}; }
};

FilePrefix read_file_prefix(BlobStore& blobs, const Screenshot& screenshot) {
    FilePrefix file;
    file.prefix =
        blobs.read_prefix(screenshot.key, imagediff::image_size_prefix_bytes).value_or("");
    const auto info = blobs.stat(screenshot.key);
    file.size = info ? info->size : file.prefix.size();
    return file;
}

// A head whose header could not be read when the build was processed (else its size is known
// and it needs no job): decoding it says its size or why it cannot be read.
Dimensions decoded_size(BlobStore& blobs, const DiffEngineSettings& settings,
                        const Screenshot& screenshot) {
    const FilePrefix file = read_file_prefix(blobs, screenshot);
    const DiffReservation reservation(*settings.memory, diff_memory_need(nullptr, file.image()),
                                      nullptr, settings.retained_bytes_per_worker);
    imagediff::Image image;
    const auto bytes = blob_bytes(blobs, screenshot.key);
    imagediff::decode(as_bytes(bytes), image);
    return {image.width, image.height};
}

Computed compare_images(Host& host, const DiffEngineSettings& settings, const Screenshot& base,
                        const Screenshot& head, const std::vector<TestMask>& masks) {
    auto& blobs = host.blobs();
    const FilePrefix base_file = read_file_prefix(blobs, base);
    const FilePrefix head_file = read_file_prefix(blobs, head);
    const StoredImage base_image = base_file.image();
    WorkerEngine& engine = worker_engine();
    const DiffReservation reservation(*settings.memory,
                                      diff_memory_need(&base_image, head_file.image()), &engine,
                                      settings.retained_bytes_per_worker);
    imagediff::Differ& differ = engine.differ();
    imagediff::CompareOptions options;
    options.threshold = head.threshold.value_or(0.5);
    options.threads = settings.threads_per_diff;
    options.ignore_regions = ignore_regions_of(masks);
    imagediff::DiffResult result;
    auto base_path = blobs.local_path(base.key);
    auto head_path = blobs.local_path(head.key);
    if (base_path && head_path) {
        result = differ.diff_files(*base_path, *head_path, options);
    } else {
        const auto base_bytes = blob_bytes(blobs, base.key);
        const auto head_bytes = blob_bytes(blobs, head.key);
        result = differ.diff_bytes(as_bytes(base_bytes), as_bytes(head_bytes), options);
    }
    Computed computed;
    computed.score = result.score;
    computed.base_size = Dimensions{result.base_width, result.base_height};
    computed.head_size = Dimensions{result.head_width, result.head_height};
    if (!result.mask_png.empty()) {
        computed.mask_key = blobs.put(result.mask_png);
        computed.fingerprint = result.fingerprint;
    }
    return computed;
}

Computed compute(Host& host, const DiffEngineSettings& settings, const Screenshot* base,
                 const Screenshot* head, const std::vector<TestMask>& masks) {
    Computed computed;
    if (!base) {
        if (is_image(*head)) {
            computed.head_size = decoded_size(host.blobs(), settings, *head);
        }
        return computed;
    }
    if (base->key == head->key) {
        computed.score = 0.0;
    } else if (is_image(*base) && is_image(*head)) {
        computed = compare_images(host, settings, *base, *head, masks);
    } else {
        computed.score = 1.0;  // image vs file, or two files with different hashes
    }
    return computed;
}

ProcessingMetrics::DiffResult diff_result(const Computed& computed, bool failed) {
    using Result = ProcessingMetrics::DiffResult;
    if (failed) {
        return Result::failed;
    }
    if (!computed.score) {
        return Result::added;
    }
    return *computed.score > 0 ? Result::changed : Result::unchanged;
}

void record(soci::session& session, const BuildSettings& settings, Build& build, DiffRow& diff,
            const Computed& computed) {
    if (computed.base_size && diff.base_screenshot_id) {
        set_screenshot_dimensions(session, *diff.base_screenshot_id, computed.base_size->width,
                                  computed.base_size->height);
    }
    if (computed.head_size && diff.head_screenshot_id) {
        set_screenshot_dimensions(session, *diff.head_screenshot_id, computed.head_size->width,
                                  computed.head_size->height);
    }
    diff.score = computed.score;
    diff.mask_key = computed.mask_key;
    diff.fingerprint = computed.fingerprint;
    const bool has_change = diff.test_id && diff.fingerprint;
    if (has_change && settings.ignore_enabled &&
        change_is_ignored(session, build.project_id, *diff.test_id, *diff.fingerprint)) {
        diff.ignored = true;
    }
    if (build.type == BuildType::reference && diff.test_id) {
        bump_test_counters(session, *diff.test_id, diff.fingerprint, diff.created_at);
        const auto threshold = settings.auto_ignore_changes.value_or(0);
        if (has_change && settings.ignore_enabled && threshold > 0 && !diff.ignored &&
            auto_ignore_due(session, *diff.test_id, *diff.fingerprint, threshold, now_ms()) &&
            !unignored_by_a_person(session, build.project_id, *diff.test_id, *diff.fingerprint)) {
            record_ignored_change(session, build.project_id, *diff.test_id, *diff.fingerprint,
                                  IgnoreActor{});
            diff.ignored = true;
        }
    }
    complete_diff(session, diff);
    if (diff.fingerprint) {
        group_by_fingerprint(session, build.id, *diff.fingerprint);
    }
}

}  // namespace

void compute_diff(Host& host, const BuildEvents& events, const DiffEngineSettings& settings,
                  int64_t diff_id) {
    std::optional<DiffRow> diff;
    std::map<int64_t, Screenshot> screenshots;
    BuildSettings project_settings;
    std::vector<TestMask> masks;
    {
        auto session = host.db().session();
        diff = find_diff(*session, diff_id);
        if (!diff || diff->job_status != ProcessingState::pending) {
            return;
        }
        std::vector<int64_t> ids;
        for (const auto& id : {diff->base_screenshot_id, diff->head_screenshot_id}) {
            if (id) {
                ids.push_back(*id);
            }
        }
        screenshots = screenshots_by_id(*session, ids);
        auto build = find_build(*session, host.db().dialect(), diff->build_id);
        if (!build) {
            return;
        }
        project_settings = build_settings_of(*session, build->project_id);
        // The masks in force now: changing them later does not rewrite this diff.
        if (diff->test_id) {
            masks = masks_in_force(*session, *diff->test_id, build->branch);
        }
    }
    auto side = [&](const std::optional<int64_t>& id) -> const Screenshot* {
        if (!id) {
            return nullptr;
        }
        auto it = screenshots.find(*id);
        return it == screenshots.end() ? nullptr : &it->second;
    };
    const Screenshot* base = side(diff->base_screenshot_id);
    const Screenshot* head = side(diff->head_screenshot_id);
    if (!head) {
        return;  // removed diffs are created complete; a missing head means a deleted build
    }
    Computed computed;
    std::optional<std::string> decode_failure;
    const auto started = std::chrono::steady_clock::now();
    try {
        computed = compute(host, settings, base, head, masks);
    } catch (const imagediff::DecodeError& error) {
        decode_failure = error.what();  // the same bytes fail the same way: no retry
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    events.metrics().diff_computed(diff_result(computed, decode_failure.has_value()), took.count());
    std::optional<Build> concluded;
    host.db().transaction([&](soci::session& session) {
        concluded.reset();
        auto build = find_build(session, host.db().dialect(), diff->build_id, true);
        auto current = find_diff(session, diff_id);
        if (!build || !current || current->job_status != ProcessingState::pending) {
            return;
        }
        if (decode_failure) {
            const bool first_failure = !build_has_failed_diff(session, build->id);
            fail_diff(session, diff_id, *decode_failure);
            if (first_failure) {
                events.publish(session, BuildEvent::failed, *build, true);
            }
            return;
        }
        record(session, project_settings, *build, *current, computed);
        if (try_conclude(session, *build, events)) {
            concluded = *build;
        }
    });
    if (concluded) {
        events.metrics().build_concluded(*concluded);
    }
}

void fail_diff_computation(Host& host, const BuildEvents& events, int64_t diff_id,
                           const std::string& error) {
    host.db().transaction([&](soci::session& session) {
        auto diff = find_diff(session, diff_id);
        if (!diff || diff->job_status != ProcessingState::pending) {
            return;
        }
        auto build = find_build(session, host.db().dialect(), diff->build_id, true);
        const bool first_failure = build && !build_has_failed_diff(session, build->id);
        fail_diff(session, diff_id, error);
        if (first_failure) {
            events.publish(session, BuildEvent::failed, *build, true);
        }
    });
}

}  // namespace loupe::builds
