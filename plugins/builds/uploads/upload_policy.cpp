#include "uploads/upload_policy.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "loupe/http/http_error.hpp"
#include "processing/baseline.hpp"
#include "store/project_blobs.hpp"
#include "store/upload_claims.hpp"

namespace loupe::builds {
namespace {

constexpr int64_t upload_ttl_ms = claim_window_ms;

int64_t non_negative(const ConfigView& config, const std::string& name, int64_t fallback) {
    const int64_t value = config.get_int(name, fallback);
    if (value < 0) {
        throw std::runtime_error("plugins.builds." + name + ": expected a number >= 0, got " +
                                 std::to_string(value));
    }
    return value;
}

std::string mebibytes(int64_t bytes) {
    return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

Json target_of(BlobStore& blobs, const Upload& upload, bool secure_form) {
    if (secure_form) {
        auto [url, fields] = blobs.signed_post_form(upload.key, upload.content_type, upload_ttl_ms);
        Json form = Json::object();
        for (const auto& [name, value] : fields) {
            form[name] = value;
        }
        return {{"key", upload.key}, {"postUrl", url}, {"fields", form}};
    }
    return {{"key", upload.key},
            {"putUrl", blobs.signed_put_url(upload.key, upload.content_type, upload_ttl_ms)}};
}

}  // namespace

UploadPolicy UploadPolicy::from_config(const ConfigView& config) {
    UploadPolicy policy;
    policy.max_stored_bytes = non_negative(config, "max_stored_bytes", 100LL << 30);
    policy.max_screenshots_per_build = non_negative(config, "max_screenshots_per_build", 50'000);
    policy.clock_skew_ms = non_negative(config, "upload_clock_skew_ms", 10'000);
    return policy;
}

ProjectQuotas quotas_of(const BuildSettings& settings, const UploadPolicy& policy) {
    return ProjectQuotas{
        settings.max_stored_bytes.value_or(policy.max_stored_bytes),
        settings.max_screenshots_per_build.value_or(policy.max_screenshots_per_build)};
}

void check_screenshot_quota(const ProjectQuotas& quotas, int64_t screenshots) {
    if (quotas.max_screenshots_per_build > 0 && screenshots > quotas.max_screenshots_per_build) {
        throw HttpError(413,
                        "A build of this project holds at most " +
                            std::to_string(quotas.max_screenshots_per_build) + " screenshots",
                        {"This build would hold " + std::to_string(screenshots) +
                         " screenshots: split the suite into builds of different names, or ask "
                         "an admin to raise the project's limit (loupe admin quota)"});
    }
}

Json upload_targets(Database& database, BlobStore& blobs, int64_t project_id, int64_t build_id,
                    const std::vector<Upload>& uploads, bool secure_form, int64_t clock_skew_ms) {
    std::vector<std::string> keys;
    std::set<std::string> listed;
    for (const auto& upload : uploads) {
        if (listed.insert(upload.key).second) {
            keys.push_back(upload.key);
        }
    }
    std::set<std::string> held;
    {
        auto session = database.session();
        held = held_keys(*session, project_id, keys);
    }
    std::vector<std::string> held_list(held.begin(), held.end());
    std::vector<std::string> to_claim;
    for (const auto& key : keys) {
        if (!held.contains(key)) {
            to_claim.push_back(key);
        }
    }
    if (!to_claim.empty()) {
        database.transaction([&](soci::session& session) {
            record_claim(session, project_id, build_id, to_claim, now_ms(), clock_skew_ms);
        });
    }
    // Keys the project holds need no upload unless the store lost them.
    const auto lost = blobs.missing(held_list);
    std::set<std::string> to_upload(to_claim.begin(), to_claim.end());
    to_upload.insert(lost.begin(), lost.end());
    Json targets = Json::array();
    for (const auto& upload : uploads) {
        if (to_upload.erase(upload.key) > 0) {  // once per key, in the order listed
            targets.push_back(target_of(blobs, upload, secure_form));
        }
    }
    return targets;
}

void require_held(soci::session& session, BlobStore& blobs, int64_t project_id, int64_t build_id,
                  const std::vector<std::string>& keys, const ProjectQuotas& quotas,
                  int64_t clock_skew_ms) {
    const auto held = held_keys(session, project_id, keys);
    std::vector<std::string> new_keys;
    for (const auto& key : keys) {
        if (!held.contains(key)) {
            new_keys.push_back(key);
        }
    }
    if (new_keys.empty()) {
        return;
    }
    const auto claims = claims_of_build(session, build_id, new_keys);
    std::vector<std::string> unproven;
    std::vector<std::pair<std::string, int64_t>> proven;
    int64_t new_bytes = 0;
    for (const auto& key : new_keys) {
        const auto claim = claims.find(key);
        const auto info = claim == claims.end() ? std::nullopt : blobs.stat(key);
        // Only bytes written while one of the build's upload targets stood prove that the
        // project has them; an older copy is another project's.
        const auto written_in_window = [&](int64_t claimed_at) {
            return info->written_at_ms >= claimed_at - clock_skew_ms &&
                   info->written_at_ms <= claimed_at + claim_window_ms + clock_skew_ms;
        };
        if (!info || info->written_at_ms == 0 ||
            std::none_of(claim->second.begin(), claim->second.end(), written_in_window)) {
            unproven.push_back(key);
            continue;
        }
        proven.emplace_back(key, static_cast<int64_t>(info->size));
        new_bytes += static_cast<int64_t>(info->size);
    }
    if (!unproven.empty()) {
        std::vector<std::string> details;
        for (const auto& key : unproven) {
            details.push_back("No upload of key " + key + " by this project");
        }
        throw HttpError(400,
                        "Some screenshots were never uploaded by this project: upload them to the "
                        "targets POST /builds answers before updating the build",
                        details);
    }
    if (quotas.max_stored_bytes > 0) {
        const int64_t stored = held_bytes(session, project_id);
        if (stored + new_bytes > quotas.max_stored_bytes) {
            throw HttpError(
                413, "This project's storage quota is full",
                {"The project holds " + mebibytes(stored) + " of its " +
                 mebibytes(quotas.max_stored_bytes) + "; this build adds " + mebibytes(new_bytes) +
                 ". Delete old builds (loupe admin prune, a shorter retention) or ask an admin "
                 "to raise the project's quota (loupe admin quota)"});
        }
    }
    for (const auto& [key, size] : proven) {
        hold_key(session, project_id, key, size);
    }
}

void check_bound_run(const Principal& principal, const Build& build) {
    if (!principal.allows_commit(build.commit, build.pr_head_commit)) {
        throw HttpError::unauthorized(
            "Token is bound to a different commit than the one provided.");
    }
    if (!principal.allows_branch(build.branch)) {
        throw HttpError::unauthorized(
            "Token is bound to a different branch than the one provided.");
    }
}

void check_untrusted_head(const Principal& principal, const Build& build,
                          const std::string& auto_approve_glob) {
    if (principal.untrusted_head && branch_matches_glob(auto_approve_glob, build.branch)) {
        throw HttpError::forbidden(
            "A CI run of a fork cannot send a build of " + build.branch +
            ": its builds are approved by nature. Send it from the repository itself, or with a "
            "project token");
    }
}

}  // namespace loupe::builds
