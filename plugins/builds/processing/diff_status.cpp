#include "processing/diff_status.hpp"

namespace loupe::builds {
namespace {

std::optional<int64_t> test_number(const Json& metadata, const char* key) {
    if (!metadata.is_object() || !metadata.contains("test") || !metadata["test"].is_object()) {
        return std::nullopt;
    }
    const auto& test = metadata["test"];
    if (!test.contains(key) || !test[key].is_number()) {
        return std::nullopt;
    }
    return test[key].get<int64_t>();
}

}  // namespace

bool is_failure_name(const std::string& name) {
    return name.find(" (failed).") != std::string::npos;
}

std::string diff_status(const DiffFacts& facts, bool null_score_as_unchanged) {
    if (!facts.has_head) {
        return "removed";
    }
    if (!facts.has_base) {
        if (is_failure_name(facts.head_name)) {
            const auto retry = test_number(facts.head_metadata, "retry");
            const auto retries = test_number(facts.head_metadata, "retries");
            if (!retry || !retries || *retry == *retries) {
                return "failure";
            }
            return "retryFailure";
        }
        return "added";
    }
    if (!facts.score) {
        return null_score_as_unchanged ? "unchanged" : "pending";
    }
    if (*facts.score > 0) {
        return facts.ignored ? "ignored" : "changed";
    }
    return "unchanged";
}

Json compute_stats(const std::vector<DiffFacts>& diffs) {
    Json stats = {{"added", 0},   {"removed", 0}, {"unchanged", 0},    {"changed", 0},
                  {"ignored", 0}, {"failure", 0}, {"retryFailure", 0}, {"total", 0}};
    for (const auto& diff : diffs) {
        if (diff.has_head && diff.head_has_parent) {
            continue;
        }
        const auto status = diff_status(diff, true);
        stats[status] = stats[status].get<int64_t>() + 1;
        stats["total"] = stats["total"].get<int64_t>() + 1;
    }
    return stats;
}

std::string compute_conclusion(const Json& stats, bool subset) {
    auto count = [&](const char* key) { return stats.value(key, int64_t{0}); };
    const bool changes =
        count("added") > 0 || count("changed") > 0 || (!subset && count("removed") > 0);
    return changes ? "changes-detected" : "no-changes";
}

}  // namespace loupe::builds
