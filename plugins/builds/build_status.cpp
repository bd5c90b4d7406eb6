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

std::string aggregated_status(const Build& build, const StatusInputs& inputs) {
    if (build.conclusion == "changes-detected" && build.review_state) {
        return *build.review_state;
    }
    if (build.conclusion) {
        return *build.conclusion;
    }
    if (build.job_status == "pending" || build.job_status == "progress") {
        return inputs.now_ms - build.created_at > expiry_ms ? "expired" : "pending";
    }
    if (build.job_status == "error" || build.job_status == "aborted") {
        return build.job_status;
    }
    return inputs.diff_job_failed ? "error" : "progress";
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

Json notification_json(const Build& build, const std::string& status, const std::string& url) {
    Notification n{};
    const bool reference = build.type == "reference";
    if (status == "pending") {
        n = {"queued", "pending", "pending", "queued", nullptr};
    } else if (status == "progress") {
        n = {"progress", "pending", "running", "in_progress", nullptr};
    } else if (status == "no-changes") {
        n = {"no-diff-detected", "success", "success", "completed", "success"};
    } else if (status == "changes-detected") {
        n = reference ? Notification{"diff-detected", "success", "success", "completed", "success"}
                      : Notification{"diff-detected", "failure", "failed", "completed", "failure"};
    } else if (status == "accepted") {
        n = {"diff-accepted", "success", "success", "completed", "success"};
    } else if (status == "rejected") {
        n = {"diff-rejected", "failure", "failed", "completed", "failure"};
    } else {
        return nullptr;
    }
    const std::string type = n.type;
    const std::string stats = stats_message(build.stats, build.subset);
    std::string description;
    if (build.type == "skipped") {
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
