#include "pull_request/pull_request_markdown.hpp"

#include <algorithm>
#include <array>
#include <ctime>

namespace loupe::git {
namespace {

int64_t stat_of(const Json& stats, const char* key) {
    if (!stats.is_object() || !stats.contains(key) || !stats[key].is_number_integer()) {
        return 0;
    }
    return stats[key].get<int64_t>();
}

std::string status_label(const std::string& status) {
    if (status == "accepted") {
        return "\U0001F44D Approved";
    }
    if (status == "rejected") {
        return "\U0001F44E Rejected";
    }
    if (status == "aborted") {
        return "\U0001F645 Build aborted";
    }
    if (status == "changes-detected") {
        return "\u26A0\uFE0F Changes detected";
    }
    if (status == "error") {
        return "\u274C An error happened";
    }
    if (status == "expired") {
        return "\u274C Build expired";
    }
    if (status == "pending") {
        return "\U0001F4ED Waiting for screenshots";
    }
    if (status == "progress") {
        return "\U0001F69C Diffing screenshots";
    }
    return "\u2705 No changes detected";
}

/// A name as table cell text: a pipe would end the cell, a line break the row.
std::string cell_text(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '|') {
            out += "\\|";
        } else {
            out += (c == '\n' || c == '\r') ? ' ' : c;
        }
    }
    return out;
}

std::string build_row(const ListedBuild& build, bool several_projects) {
    const std::string name = cell_text(
        several_projects ? build.project_name + "/" + build.build_name : build.build_name);
    std::string label = build_label(build);
    if (build.status == "changes-detected" && build.type != "reference") {
        label += " ([Review](" + build.url + "))";
    }
    const auto changes = build.stats.is_null() ? "" : changes_text(build.stats, build.subset);
    return "| **" + name + "** ([Inspect](" + build.url + ")) | " + label + " | " +
           (changes.empty() ? "-" : changes) + " | " + updated_text(build.updated_at) + " |";
}

std::string builds_table(const std::vector<ListedBuild>& builds) {
    bool several_projects = false;
    for (const auto& build : builds) {
        several_projects = several_projects || build.project_name != builds.front().project_name;
    }
    std::vector<std::string> rows;
    rows.reserve(builds.size());
    for (const auto& build : builds) {
        rows.push_back(build_row(build, several_projects));
    }
    std::sort(rows.begin(), rows.end());
    std::string table =
        "| Build | Status | Details | Updated (UTC) |\n| :---- | :----- | :------ | :------------ "
        "|";
    for (const auto& row : rows) {
        table += "\n" + row;
    }
    return table;
}

}  // namespace

std::string build_label(const ListedBuild& build) {
    if (build.type == "skipped") {
        return "\u26AA\uFE0F Skipped build";
    }
    if (build.type == "orphan") {
        return "\U0001F535 Orphan build";
    }
    if (build.type == "reference") {
        return "\u2705 Auto-approved build";
    }
    return status_label(build.status);
}

std::string changes_text(const Json& stats, bool subset) {
    std::vector<std::string> parts;
    if (const auto changed = stat_of(stats, "changed"); changed > 0) {
        parts.push_back(std::to_string(changed) + " changed");
    }
    if (const auto added = stat_of(stats, "added"); added > 0) {
        parts.push_back(std::to_string(added) + " added");
    }
    if (const auto removed = stat_of(stats, "removed"); !subset && removed > 0) {
        parts.push_back(std::to_string(removed) + " removed");
    }
    if (const auto failures = stat_of(stats, "failure"); failures > 0) {
        parts.push_back(std::to_string(failures) + (failures > 1 ? " failures" : " failure"));
    }
    if (const auto ignored = stat_of(stats, "ignored"); ignored > 0) {
        parts.push_back(std::to_string(ignored) + " ignored");
    }
    std::string text;
    for (const auto& part : parts) {
        text += (text.empty() ? "" : ", ") + part;
    }
    return text;
}

std::string updated_text(int64_t epoch_ms) {
    static constexpr std::array<const char*, 12> months{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const std::time_t seconds = epoch_ms / 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    const int hour12 = utc.tm_hour % 12 == 0 ? 12 : utc.tm_hour % 12;
    const std::string minutes = (utc.tm_min < 10 ? "0" : "") + std::to_string(utc.tm_min);
    return std::string(months.at(static_cast<std::size_t>(utc.tm_mon))) + " " +
           std::to_string(utc.tm_mday) + ", " + std::to_string(utc.tm_year + 1900) + ", " +
           std::to_string(hour12) + ":" + minutes + (utc.tm_hour < 12 ? " AM" : " PM");
}

std::string pull_request_comment(const std::vector<ListedBuild>& builds) {
    std::string body = comment_header;
    if (!builds.empty()) {
        body += "\n\n" + builds_table(builds);
    }
    return body;
}

SummaryCheckState summary_check_state(const std::vector<ListedBuild>& builds) {
    const auto any = [&](const std::vector<std::string>& statuses) {
        return std::any_of(builds.begin(), builds.end(), [&](const ListedBuild& build) {
            return build.type != "reference" && build.type != "skipped" &&
                   std::find(statuses.begin(), statuses.end(), build.status) != statuses.end();
        });
    };
    SummaryCheckState state;
    state.summary = builds_table(builds);
    if (any({"pending"})) {
        state.status = "queued";
        state.title = "Builds queued...";
    } else if (any({"progress"})) {
        state.status = "in_progress";
        state.title = "Builds in progress...";
    } else {
        state.status = "completed";
        if (any({"error", "expired", "aborted"})) {
            state.conclusion = "failure";
            state.title = "A build failed";
        } else if (any({"changes-detected"})) {
            state.conclusion = "action_required";
            state.title = "Diff detected";
        } else if (any({"rejected"})) {
            state.conclusion = "failure";
            state.title = "Diff rejected";
        } else if (any({"accepted"})) {
            state.conclusion = "success";
            state.title = "Diff accepted";
        } else {
            state.conclusion = "success";
            state.title = "No diff detected";
        }
    }
    return state;
}

}  // namespace loupe::git
