#include "processing/pairing.hpp"

#include <set>
#include <unordered_map>

#include "processing/diff_status.hpp"

namespace loupe::builds {
namespace {

std::vector<std::string> base_name_candidates(const Screenshot& head) {
    std::vector<std::string> names;
    if (head.base_names.is_array()) {
        for (const auto& name : head.base_names) {
            if (name.is_string()) {
                names.push_back(name.get<std::string>());
            }
        }
    }
    if (names.empty()) {
        names.push_back(head.name);
    }
    return names;
}

// An added screenshot needs the job only to learn its dimensions (Argos: "complete if the
// head file has known dimensions").
PlannedDiff added(const Screenshot& head) {
    return PlannedDiff{nullptr, &head, !head.width || !head.height, std::nullopt};
}

}  // namespace

std::vector<PlannedDiff> pair_screenshots(const std::vector<Screenshot>& head,
                                          const std::vector<Screenshot>* baseline) {
    std::vector<PlannedDiff> plan;
    std::unordered_map<std::string, const Screenshot*> baseline_by_name;
    if (baseline) {
        for (const auto& screenshot : *baseline) {
            baseline_by_name.emplace(screenshot.name, &screenshot);  // first occurrence wins
        }
    }
    std::set<std::string> head_names;
    std::set<const Screenshot*> used;
    for (const auto& screenshot : head) {
        head_names.insert(screenshot.name);
        if (!baseline || is_failure_name(screenshot.name)) {
            plan.push_back(added(screenshot));
            continue;
        }
        const Screenshot* base = nullptr;
        for (const auto& candidate : base_name_candidates(screenshot)) {
            if (auto it = baseline_by_name.find(candidate); it != baseline_by_name.end()) {
                base = it->second;
                break;
            }
        }
        if (!base) {
            plan.push_back(added(screenshot));
            continue;
        }
        used.insert(base);
        if (base->key == screenshot.key) {
            plan.push_back(PlannedDiff{base, &screenshot, false, 0.0});
        } else {
            plan.push_back(PlannedDiff{base, &screenshot, true, std::nullopt});
        }
    }
    if (baseline) {
        for (const auto& screenshot : *baseline) {
            if (!head_names.contains(screenshot.name) && !used.contains(&screenshot) &&
                !is_failure_name(screenshot.name)) {
                plan.push_back(PlannedDiff{&screenshot, nullptr, false, std::nullopt});
            }
        }
    }
    return plan;
}

}  // namespace loupe::builds
