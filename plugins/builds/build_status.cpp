#include "build_status.hpp"

namespace loupe::builds {
namespace {

constexpr int64_t expiry_ms = 2 * 60 * 60 * 1000;
const char* const em_dash = " \u2014 ";

int64_t count(const Json& stats, const char* key) {
    if (!stats.is_object() || !stats.contains(key) || !stats[key].is_number()) {
        return 0;
    }
    return stats[key].get<int64_t>();
}

struct Notification {
    const char* type;
    const char* github;
    const char* gitlab;
    const char* origin_status;
    const char* origin_conclusion;  // nullptr → null
};

}  // namespace

BuildStatus aggregated_status(const Build& build, const StatusInputs& inputs) {
    if (build.conclusion == Conclusion::changes_detected && build.review_state) {
        return *build.review_state == ReviewState::accepted ? BuildStatus::accepted
                                                            : BuildStatus::rejected;
    }
    if (build.conclusion) {
        return *build.conclusion == Conclusion::changes_detected ? BuildStatus::changes_detected
                                                                 : BuildStatus::no_changes;
    }
    switch (build.job_status) {
        case ProcessingState::pending:
        case ProcessingState::progress:
            return inputs.now_ms - build.created_at > expiry_ms ? BuildStatus::expired
                                                                : BuildStatus::pending;
        case ProcessingState::error:
            return BuildStatus::error;
        case ProcessingState::aborted:
            return BuildStatus::aborted;
        case ProcessingState::complete:
            break;
    }
    return inputs.diff_job_failed ? BuildStatus::error : BuildStatus::progress;
}

std::string stats_message(const Json& stats, bool subset) {
    std::string message;
    auto part = [&](int64_t n, const std::string& label) {
        if (n > 0) {
            message += (message.empty() ? "" : ", ") + std::to_string(n) + " " + label;
        }
    };
    part(count(stats, "changed"), "changed");
    part(count(stats, "added"), "added");
    if (!subset) {
        part(count(stats, "removed"), "removed");
    }
    const auto failures = count(stats, "failure");
    part(failures, failures == 1 ? "failure" : "failures");
    part(count(stats, "ignored"), "ignored");
    return message;
}

Json stats_json(const Json& stats) {
    if (stats.is_null()) {
        return nullptr;
    }
    Json out = Json::object();
    for (const char* key : {"added", "removed", "unchanged", "changed", "ignored", "failure",
                            "retryFailure", "total"}) {
        out[key] = count(stats, key);
    }
    return out;
}

Json notification_json(const Build& build, BuildStatus status, const std::string& url) {
    Notification n{};
    const bool reference = build.type == BuildType::reference;
    switch (status) {
        case BuildStatus::pending:
            n = {"queued", "pending", "pending", "queued", nullptr};
            break;
        case BuildStatus::progress:
            n = {"progress", "pending", "running", "in_progress", nullptr};
            break;
        case BuildStatus::no_changes:
            n = {"no-diff-detected", "success", "success", "completed", "success"};
            break;
        case BuildStatus::changes_detected:
            n = reference
                    ? Notification{"diff-detected", "success", "success", "completed", "success"}
                    : Notification{"diff-detected", "failure", "failed", "completed", "failure"};
            break;
        case BuildStatus::accepted:
            n = {"diff-accepted", "success", "success", "completed", "success"};
            break;
        case BuildStatus::rejected:
            n = {"diff-rejected", "failure", "failed", "completed", "failure"};
            break;
        case BuildStatus::expired:
        case BuildStatus::error:
        case BuildStatus::aborted:
            return nullptr;
    }
    const std::string type = n.type;
    const std::string stats = stats_message(build.stats, build.subset);
    std::string description;
    if (build.type == BuildType::skipped) {
        n = {n.type, "success", "success", "completed", "success"};
        description = "Build skipped";
    } else if (type == "queued") {
        description = "Build is queued";
    } else if (type == "progress") {
        description = "Build in progress...";
    } else if (type == "no-diff-detected") {
        if (reference) {
            description =
                "Auto-approved, no changes found" + (stats.empty() ? "" : em_dash + stats);
        } else {
            description =
                stats.empty() ? "Everything's good!" : stats + em_dash + "no changes found";
        }
    } else if (type == "diff-detected") {
        description = reference ? stats + ", automatically approved"
                                : stats + em_dash + "waiting for your decision";
    } else if (type == "diff-accepted") {
        description = stats + em_dash + "approved";
    } else {
        description = stats + em_dash + "rejected";
    }
    std::string context = "argos";
    if (build.name != "default") {
        context += "/" + build.name;
    }
    return Json{{"description", description},
                {"context", context},
                {"github", {{"state", n.github}}},
                {"gitlab", {{"state", n.gitlab}}},
                {"origin",
                 {{"status", n.origin_status},
                  {"conclusion", n.origin_conclusion ? Json(n.origin_conclusion) : Json()}}},
                {"url", url}};
}

}  // namespace loupe::builds
