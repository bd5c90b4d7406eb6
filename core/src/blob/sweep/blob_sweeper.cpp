#include "blob/sweep/blob_sweeper.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include "loupe/json.hpp"

namespace loupe {
namespace {

int64_t non_negative(const ConfigView& config, const std::string& key, int64_t fallback) {
    const auto value = config.get_int(key, fallback);
    if (value < 0) {
        throw std::runtime_error(key + ": expected a duration in milliseconds >= 0, got " +
                                 std::to_string(value));
    }
    return value;
}

std::string join(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}

}  // namespace

BlobSweepSettings BlobSweepSettings::from_config(const ConfigView& config) {
    BlobSweepSettings settings;
    settings.min_age_ms = non_negative(config, "blobs.sweep.min_age_ms", settings.min_age_ms);
    settings.grace_ms = non_negative(config, "blobs.sweep.grace_ms", settings.grace_ms);
    return settings;
}

BlobSweeper::BlobSweeper(Database& database, BlobInventory& inventory, ReferencedBlobs referenced,
                         UnseenHolders unseen, BlobSweepSettings settings, Logger& log)
    : clock([] { return now_ms(); }),
      wait([](int64_t ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }),
      database_(database),
      inventory_(inventory),
      referenced_(std::move(referenced)),
      unseen_(std::move(unseen)),
      settings_(settings),
      log_(log) {}

std::set<std::string> BlobSweeper::referenced_keys(const std::vector<std::string>& keys) {
    // Outside any transaction: each statement sees every row committed before it ran.
    auto session = database_.session();
    return referenced_(*session, keys);
}

BlobSweepReport BlobSweeper::sweep(const BlobSweepOptions& options) {
    BlobSweepReport report;
    const int64_t start = clock();
    {
        auto session = database_.session();
        report.missing_plugins = unseen_(*session);
    }
    if (!report.missing_plugins.empty()) {
        report.refusal = "not sweeping blobs: plugin(s) " + join(report.missing_plugins) +
                         " have tables in this database but are not enabled here, and their "
                         "rows may reference blobs (enable them for this command, e.g. --set "
                         "plugins.enabled=...)";
        log_.warn("blobs.sweep_refused", {{"plugins", join(report.missing_plugins)}});
        return report;
    }
    if (!options.dry_run) {
        // Entries an earlier sweep left (it crashed, or another instance's sweep is waiting).
        settle_quarantine(report, start);
    }
    const int64_t cutoff = start - settings_.min_age_ms;
    Pass pass{report, options.dry_run, {}, 0};
    if (options.dry_run) {
        pass.assume_unreferenced.insert(options.assume_unreferenced.begin(),
                                        options.assume_unreferenced.end());
    }
    mark(pass, cutoff);
    if (pass.quarantined > 0) {
        if (after_quarantine) {
            after_quarantine();
        }
        wait(settings_.grace_ms);
        report.waiting = 0;
        settle_quarantine(report, clock());
    }
    report.stale_uploads = inventory_.remove_stale_uploads(cutoff, options.dry_run);
    report.swept = true;
    log_.info("blobs.swept", {{"stored", std::to_string(report.stored)},
                              {"removed", std::to_string(report.removed)},
                              {"bytes", std::to_string(report.removed_bytes)},
                              {"restored", std::to_string(report.restored)},
                              {"dry_run", options.dry_run ? "true" : "false"}});
    return report;
}

void BlobSweeper::mark(Pass& pass, int64_t cutoff_ms) {
    std::vector<StoredBlob> batch;
    inventory_.for_each_blob([&](const StoredBlob& blob) {
        ++pass.report.stored;
        if (blob.written_ms >= cutoff_ms) {
            ++pass.report.recent;
            return;
        }
        batch.push_back(blob);
        if (batch.size() >= settings_.batch) {
            check_candidates(pass, batch);
        }
    });
    check_candidates(pass, batch);
}

void BlobSweeper::check_candidates(Pass& pass, std::vector<StoredBlob>& batch) {
    if (batch.empty()) {
        return;
    }
    std::vector<std::string> keys;
    keys.reserve(batch.size());
    for (const auto& blob : batch) {
        keys.push_back(blob.key);
    }
    const auto in_use = referenced_keys(keys);
    auto& report = pass.report;
    for (const auto& blob : batch) {
        if (in_use.contains(blob.key) && !pass.assume_unreferenced.contains(blob.key)) {
            ++report.referenced;
        } else if (pass.dry_run) {
            ++report.removed;
            report.removed_bytes += static_cast<int64_t>(blob.size);
        } else if (inventory_.quarantine(blob.key, clock())) {
            ++pass.quarantined;
        }
    }
    batch.clear();
}

void BlobSweeper::settle_quarantine(BlobSweepReport& report, int64_t now_ms) {
    std::vector<QuarantinedBlob> due;
    for (auto& entry : inventory_.quarantined()) {
        if (entry.since_ms + settings_.grace_ms <= now_ms) {
            due.push_back(std::move(entry));
        } else {
            ++report.waiting;
        }
    }
    for (std::size_t begin = 0; begin < due.size(); begin += settings_.batch) {
        const std::size_t end = std::min(due.size(), begin + settings_.batch);
        std::vector<std::string> keys;
        for (std::size_t i = begin; i < end; ++i) {
            keys.push_back(due[i].key);
        }
        const auto in_use = referenced_keys(keys);
        for (std::size_t i = begin; i < end; ++i) {
            if (in_use.contains(due[i].key)) {
                inventory_.restore(due[i]);
                ++report.restored;
                log_.warn("blobs.restored", {{"key", due[i].key}});
            } else {
                inventory_.purge(due[i]);
                ++report.removed;
                report.removed_bytes += static_cast<int64_t>(due[i].size);
            }
        }
    }
}

}  // namespace loupe
