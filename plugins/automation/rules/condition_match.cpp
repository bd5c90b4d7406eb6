#include "rules/condition_match.hpp"

#include <fnmatch.h>

namespace loupe::automation {
namespace {

bool optional_equals(const std::optional<std::string>& actual, const Json& expected) {
    if (expected.is_null())
        return !actual.has_value();
    return actual && expected.is_string() && *actual == expected.get<std::string>();
}

bool plain_condition_holds(const Json& condition, const BuildFactsForRules& build, bool glob) {
    const std::string type = condition.value("type", "");
    const Json value = condition.value("value", Json());
    if (type == "build-branch") {
        const std::string expected = value.is_string() ? value.get<std::string>() : "";
        return glob ? branch_matches_glob(expected, build.branch) : build.branch == expected;
    }
    if (type == "build-name")
        return value.is_string() && build.name == value.get<std::string>();
    if (type == "build-mode")
        return optional_equals(build.mode, value);
    if (type == "build-conclusion")
        return optional_equals(build.conclusion, value);
    if (type == "build-type")
        return optional_equals(build.type, value);
    return false;  // validated on write: an unknown type never matches
}

bool condition_holds(const Json& condition, const BuildFactsForRules& build) {
    if (condition.contains("not"))
        return !condition_holds(condition.at("not"), build);
    if (condition.contains("glob"))
        return plain_condition_holds(condition.at("glob"), build, true);
    return plain_condition_holds(condition, build, false);
}

}  // namespace

bool branch_matches_glob(const std::string& glob, const std::string& branch) {
    // fnmatch(3) is POSIX glob matching; FNM_PATHNAME keeps `*` within a segment, and a
    // pattern with `**` is matched without it so that `**` crosses segments as in minimatch.
    const bool crosses = glob.find("**") != std::string::npos;
    return fnmatch(glob.c_str(), branch.c_str(), crosses ? 0 : FNM_PATHNAME) == 0;
}

bool conditions_match(const Json& conditions, const BuildFactsForRules& build) {
    if (!conditions.is_array())
        return true;
    for (const Json& condition : conditions) {
        if (!condition.is_object() || !condition_holds(condition, build))
            return false;
    }
    return true;
}

}  // namespace loupe::automation
