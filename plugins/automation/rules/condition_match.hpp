#pragma once
// Whether a build event satisfies a rule's conditions, as Argos decides: every condition must
// hold (AND; no conditions always match). `build-branch` compares the branch exactly, or as a
// minimatch-style glob when wrapped in `glob` (`*` and `?` stay within one `/` segment, `**`
// crosses them, `[…]` a class); `build-conclusion`, `build-mode`, `build-name` and
// `build-type` compare the build's value (null matches a build without one); `not` negates.

#include <optional>
#include <string>

#include "loupe/json.hpp"

namespace loupe::automation {

/// What conditions are tested against.
struct BuildFactsForRules {
    std::string branch;
    std::string name;
    std::string mode;                       ///< ci | monitoring
    std::optional<std::string> conclusion;  ///< no-changes | changes-detected
    std::optional<std::string> type;        ///< reference | check | orphan | skipped
};

bool branch_matches_glob(const std::string& glob, const std::string& branch);

/// Every condition of the array holds for `build`.
bool conditions_match(const Json& conditions, const BuildFactsForRules& build);

}  // namespace loupe::automation
