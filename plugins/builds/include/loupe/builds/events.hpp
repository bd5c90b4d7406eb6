#pragma once
// The events the builds plugin publishes (loupe/events/events.hpp), each in the transaction
// that made the change, with the build as it read then. A subscriber that needs the build's
// state at the time it runs reads it again (BuildsService::find_build_by_id): later events may
// have been published meanwhile.
//
//   build.created    POST /builds made a new build (pending)
//   build.finalized  every screenshot received; processing queued
//   build.concluded  every diff computed: conclusion and stats written (Argos's
//                    `build.completed`); a concluded build of a pull request carries its
//                    number and head commit
//   build.failed     processing failed for good (status error)
//
// A build's review state changes are the reviews plugin's (build.review_state_changed,
// loupe/reviews/events.hpp).

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/builds/build_states.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/events/events.hpp"
#include "loupe/json.hpp"

namespace loupe::builds {

/// What every build event says about its build.
struct BuildFacts {
    int64_t id = 0;
    int64_t project_id = 0;
    int64_t number = 0;
    std::string name = "default";
    std::string commit;
    std::string head_sha;  ///< the pull request's head commit if sent, else `commit`
    std::string branch;
    std::optional<int64_t> pr_number;
    BuildMode mode = BuildMode::ci;
    bool merge_queue = false;
    BuildStatus status = BuildStatus::pending;  ///< when the event was published
};

/// The facts of a build read through the builds service (for events other plugins publish
/// about a build).
inline BuildFacts facts_of(const BuildSummary& build) {
    BuildFacts facts;
    facts.id = build.id;
    facts.project_id = build.project_id;
    facts.number = build.number;
    facts.name = build.name;
    facts.commit = build.commit;
    facts.head_sha = build.head_sha;
    facts.branch = build.branch;
    facts.pr_number = build.pr_number;
    facts.mode = build.mode;
    facts.merge_queue = build.merge_queue;
    facts.status = build.status;
    return facts;
}

struct BuildCreated {
    static constexpr const char* event_type = "build.created";
    static constexpr int event_version = 1;
    BuildFacts build;
};

struct BuildFinalized {
    static constexpr const char* event_type = "build.finalized";
    static constexpr int event_version = 1;
    BuildFacts build;
    int64_t screenshot_count = 0;
};

struct BuildConcluded {
    static constexpr const char* event_type = "build.concluded";
    static constexpr int event_version = 1;
    BuildFacts build;
    Conclusion conclusion = Conclusion::no_changes;
    std::optional<BuildType> type;
    Json stats;  ///< {"added", "removed", "unchanged", "changed", "ignored", "failure", ...}
    std::optional<int64_t> base_build_id;
};

struct BuildFailed {
    static constexpr const char* event_type = "build.failed";
    static constexpr int event_version = 1;
    BuildFacts build;
};

inline void to_json(Json& json, const BuildFacts& build) {
    json = Json{{"id", build.id},         {"projectId", build.project_id},
                {"number", build.number}, {"name", build.name},
                {"commit", build.commit}, {"headSha", build.head_sha},
                {"branch", build.branch}, {"prNumber", optional_json(build.pr_number)},
                {"mode", build.mode},     {"mergeQueue", build.merge_queue},
                {"status", build.status}};
}

inline void from_json(const Json& json, BuildFacts& build) {
    build.id = json.at("id").get<int64_t>();
    build.project_id = json.at("projectId").get<int64_t>();
    build.number = json.at("number").get<int64_t>();
    build.name = field_or<std::string>(json, "name", "default");
    build.commit = field_or<std::string>(json, "commit", "");
    build.head_sha = field_or<std::string>(json, "headSha", build.commit);
    build.branch = field_or<std::string>(json, "branch", "");
    build.pr_number = optional_field<int64_t>(json, "prNumber");
    build.mode = field_or(json, "mode", BuildMode::ci);
    build.merge_queue = field_or(json, "mergeQueue", false);
    build.status = field_or(json, "status", BuildStatus::pending);
}

inline void to_json(Json& json, const BuildCreated& event) {
    json = Json{{"build", event.build}};
}
inline void from_json(const Json& json, BuildCreated& event) {
    event.build = json.at("build").get<BuildFacts>();
}

inline void to_json(Json& json, const BuildFinalized& event) {
    json = Json{{"build", event.build}, {"screenshotCount", event.screenshot_count}};
}
inline void from_json(const Json& json, BuildFinalized& event) {
    event.build = json.at("build").get<BuildFacts>();
    event.screenshot_count = field_or<int64_t>(json, "screenshotCount", 0);
}

inline void to_json(Json& json, const BuildConcluded& event) {
    json = Json{{"build", event.build},
                {"conclusion", event.conclusion},
                {"type", optional_json(event.type)},
                {"stats", event.stats},
                {"baseBuildId", optional_json(event.base_build_id)}};
}
inline void from_json(const Json& json, BuildConcluded& event) {
    event.build = json.at("build").get<BuildFacts>();
    event.conclusion = json.at("conclusion").get<Conclusion>();
    event.type = optional_field<BuildType>(json, "type");
    event.stats = json.value("stats", Json());
    event.base_build_id = optional_field<int64_t>(json, "baseBuildId");
}

inline void to_json(Json& json, const BuildFailed& event) {
    json = Json{{"build", event.build}};
}
inline void from_json(const Json& json, BuildFailed& event) {
    event.build = json.at("build").get<BuildFacts>();
}

}  // namespace loupe::builds
