#pragma once
// What a message about a build event says, gathered once when the rule matched (so every
// action of a run, and every retry of a delivery, sends the same words).

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/json.hpp"

namespace loupe::automation {

struct EventFacts {
    std::string event_id;  ///< the event's id (a UUIDv7)
    std::string event;     ///< build.completed | build.reviewed
    int64_t occurred_at = 0;
    std::string account_slug;
    std::string project_name;
    int64_t build_id = 0;
    int64_t build_number = 0;
    std::string build_name = "default";
    std::string build_url;
    std::string branch;
    std::string commit;
    std::optional<int64_t> pr_number;
    std::string mode = "ci";
    std::string status;                     ///< the build's status as the API shows it
    std::optional<std::string> conclusion;  ///< no-changes | changes-detected
    std::optional<std::string> type;        ///< reference | check | orphan | skipped
    Json stats;                             ///< {"added", "changed", "removed", ...} or null
    std::optional<std::string> review;      ///< approved | rejected (build.reviewed)
    std::string reviewer;                   ///< the reviewer's name or slug ("" when unknown)
};

Json to_json(const EventFacts& facts);
EventFacts event_facts_from_json(const Json& json);

/// "2 changed, 1 added, 12 unchanged" (the counts that are not zero), "" without stats.
std::string stats_text(const Json& stats);
/// "Build #12 completed", "Build #12 (mobile) has been approved".
std::string headline(const EventFacts& facts);
/// "👍 Changes detected", "✅ No changes", "👍 Approved by ada".
std::string status_line(const EventFacts& facts);

}  // namespace loupe::automation
