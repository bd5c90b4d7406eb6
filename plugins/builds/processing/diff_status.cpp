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

DiffStatus diff_status(const DiffFacts& facts, bool null_score_as_unchanged) {
    if (!facts.has_head) {
        return DiffStatus::removed;
    }
    if (!facts.has_base) {
        if (is_failure_name(facts.head_name)) {
            const auto retry = test_number(facts.head_metadata, "retry");
            const auto retries = test_number(facts.head_metadata, "retries");
            if (!retry || !retries || *retry == *retries) {
                return DiffStatus::failure;
            }
            return DiffStatus::retry_failure;
        }
        return DiffStatus::added;
    }
    if (!facts.score) {
        return null_score_as_unchanged ? DiffStatus::unchanged : DiffStatus::pending;
    }
    if (*facts.score > 0) {
        return facts.ignored ? DiffStatus::ignored : DiffStatus::changed;
    }
    return DiffStatus::unchanged;
}

Json compute_stats(const std::vector<DiffFacts>& diffs) {
    Json stats = {{"added", 0},   {"removed", 0}, {"unchanged", 0},    {"changed", 0},
                  {"ignored", 0}, {"failure", 0}, {"retryFailure", 0}, {"total", 0}};
    for (const auto& diff : diffs) {
        if (diff.has_head && diff.head_has_parent) {
            continue;
        }
        const std::string status(to_text(diff_status(diff, true)));
        stats[status] = stats[status].get<int64_t>() + 1;
        stats["total"] = stats["total"].get<int64_t>() + 1;
    }
    return stats;
}

Conclusion compute_conclusion(const Json& stats, bool subset) {
    auto count = [&](const char* key) { return stats.value(key, int64_t{0}); };
    const bool changes =
        count("added") > 0 || count("changed") > 0 || (!subset && count("removed") > 0);
    return changes ? Conclusion::changes_detected : Conclusion::no_changes;
}

}  // namespace loupe::builds
