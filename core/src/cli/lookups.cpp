#include "loupe/cli/lookups.hpp"

namespace loupe::cli {
namespace {

std::string option_value(const Options& options, std::string_view name) {
    auto value = options.optional_value(name);
    if (!value) {
        throw UsageError("missing --" + std::string(name));
    }
    return *value;
}

/// What a lookup found, or a CommandError "no <what>".
template <class Found>
Found found_or_refused(std::optional<Found> found, const std::string& what) {
    if (!found) {
        throw CommandError("no " + what);
    }
    return std::move(*found);
}

}  // namespace

std::optional<std::pair<std::string, std::string>> split_project_reference(
    std::string_view reference) {
    const auto slash = reference.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == reference.size() ||
        reference.find('/', slash + 1) != std::string_view::npos) {
        return std::nullopt;
    }
    return std::pair{std::string(reference.substr(0, slash)),
                     std::string(reference.substr(slash + 1))};
}

Project project_option(Identity& identity, const Options& options, std::string_view name) {
    const std::string text = option_value(options, name);
    const auto parts = split_project_reference(text);
    if (!parts) {
        throw UsageError("--" + std::string(name) + " must be ACCOUNT/NAME, got \"" + text + "\"");
    }
    return found_or_refused(identity.find_project(parts->first, parts->second), "project " + text);
}

Account account_option(Identity& identity, const Options& options, std::string_view name) {
    const std::string slug = option_value(options, name);
    return found_or_refused(identity.find_account(slug), "account \"" + slug + "\"");
}

User user_option(Identity& identity, const Options& options, std::string_view name) {
    const std::string slug = option_value(options, name);
    return found_or_refused(identity.find_user(slug), "user \"" + slug + "\"");
}

}  // namespace loupe::cli
