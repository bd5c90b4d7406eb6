#pragma once
// The states of builds, diffs and reviews as the builds plugin's services and events carry them,
// each with the text the Argos API uses ("changes-detected"): to_text() and parse_state<E>(),
// and JSON conversions (found by ADL) for event structs.
// VERSIONING: a new state is a new version of the services and events that carry it.

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "loupe/json.hpp"

namespace loupe::builds {

/// The status clients see: the processing state, then the conclusion, then the review state.
enum class BuildStatus {
    pending,   ///< waiting for screenshots or queued for processing
    expired,   ///< pending for more than two hours
    progress,  ///< diffs being computed
    error,     ///< processing failed for good (or a diff did)
    aborted,
    no_changes,
    changes_detected,  ///< waiting for a review decision
    accepted,          ///< changes detected, and reviewers accepted them
    rejected,          ///< changes detected, and a reviewer rejected them
};

/// What a build's diffs concluded, once every one is computed.
enum class Conclusion { no_changes, changes_detected };

/// A screenshot diff, as the diff list shows it.
enum class DiffStatus {
    pending,  ///< both files present, comparison not done yet
    removed,
    failure,        ///< a failed test's screenshot, or a comparison that failed
    retry_failure,  ///< a failed test's screenshot on an attempt that was retried
    added,
    changed,
    unchanged,
    ignored,  ///< changed, but the change is ignored
};

/// The verdict reviews give a build with changes.
enum class ReviewState { accepted, rejected };

/// How a build compares: against a baseline (check), as one (reference), with none (orphan).
enum class BuildType { reference, check, orphan, skipped };

enum class BuildMode { ci, monitoring };

template <class E>
struct StateNames;

template <>
struct StateNames<BuildStatus> {
    static constexpr std::array<std::pair<BuildStatus, std::string_view>, 9> names{{
        {BuildStatus::pending, "pending"},
        {BuildStatus::expired, "expired"},
        {BuildStatus::progress, "progress"},
        {BuildStatus::error, "error"},
        {BuildStatus::aborted, "aborted"},
        {BuildStatus::no_changes, "no-changes"},
        {BuildStatus::changes_detected, "changes-detected"},
        {BuildStatus::accepted, "accepted"},
        {BuildStatus::rejected, "rejected"},
    }};
};

template <>
struct StateNames<Conclusion> {
    static constexpr std::array<std::pair<Conclusion, std::string_view>, 2> names{{
        {Conclusion::no_changes, "no-changes"},
        {Conclusion::changes_detected, "changes-detected"},
    }};
};

template <>
struct StateNames<DiffStatus> {
    static constexpr std::array<std::pair<DiffStatus, std::string_view>, 8> names{{
        {DiffStatus::pending, "pending"},
        {DiffStatus::removed, "removed"},
        {DiffStatus::failure, "failure"},
        {DiffStatus::retry_failure, "retryFailure"},
        {DiffStatus::added, "added"},
        {DiffStatus::changed, "changed"},
        {DiffStatus::unchanged, "unchanged"},
        {DiffStatus::ignored, "ignored"},
    }};
};

template <>
struct StateNames<ReviewState> {
    static constexpr std::array<std::pair<ReviewState, std::string_view>, 2> names{{
        {ReviewState::accepted, "accepted"},
        {ReviewState::rejected, "rejected"},
    }};
};

template <>
struct StateNames<BuildType> {
    static constexpr std::array<std::pair<BuildType, std::string_view>, 4> names{{
        {BuildType::reference, "reference"},
        {BuildType::check, "check"},
        {BuildType::orphan, "orphan"},
        {BuildType::skipped, "skipped"},
    }};
};

template <>
struct StateNames<BuildMode> {
    static constexpr std::array<std::pair<BuildMode, std::string_view>, 2> names{{
        {BuildMode::ci, "ci"},
        {BuildMode::monitoring, "monitoring"},
    }};
};

template <class E>
concept NamedState = requires {
    StateNames<E>::names;
};

/// The API's text of a state ("changes-detected").
template <NamedState E>
constexpr std::string_view to_text(E state) {
    for (const auto& [value, name] : StateNames<E>::names) {
        if (value == state) {
            return name;
        }
    }
    return "";
}

/// The state with this text, or nullopt.
template <NamedState E>
constexpr std::optional<E> parse_state(std::string_view text) {
    for (const auto& [value, name] : StateNames<E>::names) {
        if (name == text) {
            return value;
        }
    }
    return std::nullopt;
}

/// The text of an optional state, nullopt staying nullopt.
template <NamedState E>
std::optional<std::string> optional_text(const std::optional<E>& state) {
    return state ? std::optional<std::string>(std::string(to_text(*state))) : std::nullopt;
}

template <NamedState E>
void to_json(Json& json, const E& state) {
    json = std::string(to_text(state));
}

template <NamedState E>
void from_json(const Json& json, E& state) {
    const auto parsed =
        json.is_string() ? parse_state<E>(json.get_ref<const std::string&>()) : std::optional<E>();
    if (!parsed) {
        throw std::invalid_argument("unknown state " + json.dump());
    }
    state = *parsed;
}

}  // namespace loupe::builds
