// The builds plugin's processing rules as pure functions: pairing base and head screenshots,
// diff status, stats and conclusion.
#include <doctest/doctest.h>

#include "processing/diff_status.hpp"
#include "processing/pairing.hpp"

namespace loupe::builds {
namespace {

Screenshot shot(int64_t id, const std::string& name, const std::string& key) {
    Screenshot s;
    s.id = id;
    s.name = name;
    s.key = key;
    return s;
}

std::string describe(const PlannedDiff& d) {
    return (d.base ? d.base->name : "-") + ">" + (d.head ? d.head->name : "-") +
           (d.needs_compute ? " compute" : "") + (d.score ? " score0" : "");
}

std::vector<std::string> describe(const std::vector<PlannedDiff>& plan) {
    std::vector<std::string> out;
    for (const auto& d : plan) {
        out.push_back(describe(d));
    }
    return out;
}

DiffFacts facts(bool base, bool head, std::optional<double> score = std::nullopt) {
    DiffFacts f;
    f.has_base = base;
    f.has_head = head;
    f.head_name = "x.png";
    f.score = score;
    return f;
}

}  // namespace

TEST_CASE("pairing: no baseline makes every screenshot added, dimension lookup pending") {
    std::vector<Screenshot> head = {shot(1, "a", "k1"), shot(2, "b", "k2")};
    head[1].width = 10;
    head[1].height = 20;
    CHECK(describe(pair_screenshots(head, nullptr)) ==
          std::vector<std::string>{"->a compute", "->b"});
}

TEST_CASE("pairing: same key, changed, added, removed, failure names") {
    std::vector<Screenshot> base = {shot(1, "same", "k1"), shot(2, "changed", "k2"),
                                    shot(3, "gone", "k3"), shot(4, "old (failed).png", "k4")};
    std::vector<Screenshot> head = {shot(11, "same", "k1"), shot(12, "changed", "k2b"),
                                    shot(13, "new", "k5"), shot(14, "t (failed).png", "k6")};
    head[2].width = head[2].height = 1;
    head[3].width = head[3].height = 1;
    CHECK(describe(pair_screenshots(head, &base)) ==
          std::vector<std::string>{"same>same score0", "changed>changed compute", "->new",
                                   "->t (failed).png", "gone>-"});
}

TEST_CASE("pairing: baseName candidates in order, a used fallback is not removed") {
    std::vector<Screenshot> base = {shot(1, "old-name", "k1"), shot(2, "other", "k2")};
    std::vector<Screenshot> head = {shot(11, "renamed", "k1b")};
    head[0].base_names = Json::array({"missing", "old-name", "other"});
    CHECK(describe(pair_screenshots(head, &base)) ==
          std::vector<std::string>{"old-name>renamed compute", "other>-"});
}

TEST_CASE("diff status: every rule of the table") {
    CHECK(diff_status(facts(true, false)) == DiffStatus::removed);
    CHECK(diff_status(facts(false, true)) == DiffStatus::added);
    auto failure = facts(false, true);
    failure.head_name = "login (failed).png";
    CHECK(diff_status(failure) == DiffStatus::failure);
    failure.head_metadata = {{"test", {{"retry", 0}, {"retries", 2}}}};
    CHECK(diff_status(failure) == DiffStatus::retry_failure);
    failure.head_metadata = {{"test", {{"retry", 2}, {"retries", 2}}}};
    CHECK(diff_status(failure) == DiffStatus::failure);
    CHECK(diff_status(facts(true, true)) == DiffStatus::pending);
    CHECK(diff_status(facts(true, true), true) == DiffStatus::unchanged);
    CHECK(diff_status(facts(true, true, 0.0)) == DiffStatus::unchanged);
    CHECK(diff_status(facts(true, true, 0.25)) == DiffStatus::changed);
    auto ignored = facts(true, true, 0.25);
    ignored.ignored = true;
    CHECK(diff_status(ignored) == DiffStatus::ignored);
    ignored.score = 0.0;
    CHECK(diff_status(ignored) == DiffStatus::unchanged);
}

TEST_CASE("stats: the issue's example, parentName excluded, removed always counted") {
    std::vector<DiffFacts> diffs = {facts(true, true, 0.1), facts(false, true), facts(true, false),
                                    facts(true, true, 0.0), facts(true, true, 0.0)};
    auto child = facts(true, true, 0.5);
    child.head_has_parent = true;
    diffs.push_back(child);
    const auto stats = compute_stats(diffs);
    CHECK(stats == Json{{"added", 1},
                        {"removed", 1},
                        {"unchanged", 2},
                        {"changed", 1},
                        {"ignored", 0},
                        {"failure", 0},
                        {"retryFailure", 0},
                        {"total", 5}});
    CHECK(compute_conclusion(stats, false) == Conclusion::changes_detected);
}

TEST_CASE("conclusion: removed only counts outside subsets, failures never trigger it") {
    const auto removed_only = compute_stats({facts(true, false), facts(true, true, 0.0)});
    CHECK(compute_conclusion(removed_only, false) == Conclusion::changes_detected);
    CHECK(compute_conclusion(removed_only, true) == Conclusion::no_changes);
    auto failure = facts(false, true);
    failure.head_name = "a (failed).png";
    auto ignored = facts(true, true, 0.3);
    ignored.ignored = true;
    const auto quiet = compute_stats({failure, ignored, facts(true, true)});
    CHECK(quiet["failure"] == 1);
    CHECK(quiet["ignored"] == 1);
    CHECK(quiet["unchanged"] == 1);
    CHECK(compute_conclusion(quiet, false) == Conclusion::no_changes);
    CHECK(compute_conclusion(compute_stats({}), false) == Conclusion::no_changes);
}

}  // namespace loupe::builds
