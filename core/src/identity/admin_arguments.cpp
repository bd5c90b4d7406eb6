#include "identity/admin_arguments.hpp"

#include <algorithm>
#include <charconv>

namespace loupe {
namespace {

bool contains(const std::vector<std::string_view>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::string command_name(const AdminCommandSpec& spec) {
    return std::string(spec.group) + " " + std::string(spec.action);
}

}  // namespace

AdminUsageError::~AdminUsageError() = default;

AdminArguments::AdminArguments(const AdminCommandSpec& spec,
                               const std::vector<std::string>& words) {
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& word = words[i];
        if (!word.starts_with("--") || word.size() == 2) {
            throw AdminUsageError("unexpected argument \"" + word + "\" for `" +
                                  command_name(spec) + "`");
        }
        const auto equals = word.find('=');
        const std::string name = word.substr(2, equals == std::string::npos ? equals : equals - 2);
        if (!contains(spec.required, name) && !contains(spec.optional, name) &&
            !contains(spec.repeatable, name)) {
            throw AdminUsageError("unknown option --" + name + " for `" + command_name(spec) + "`");
        }
        std::string value;
        if (equals != std::string::npos) {
            value = word.substr(equals + 1);
        } else if (i + 1 < words.size()) {
            value = words[++i];
        } else {
            throw AdminUsageError("option --" + name + " needs a value");
        }
        auto& values = options_[name];
        if (!values.empty() && !contains(spec.repeatable, name)) {
            throw AdminUsageError("option --" + name + " is given more than once");
        }
        values.push_back(std::move(value));
    }
    for (std::string_view name : spec.required) {
        if (options_.find(name) == options_.end()) {
            throw AdminUsageError("`" + command_name(spec) + "` needs --" + std::string(name));
        }
    }
}

const std::string& AdminArguments::value(std::string_view option) const {
    auto found = options_.find(option);
    if (found == options_.end()) {
        throw std::logic_error("admin option --" + std::string(option) + " was not parsed");
    }
    return found->second.front();
}

std::optional<std::string> AdminArguments::optional_value(std::string_view option) const {
    auto found = options_.find(option);
    return found == options_.end() ? std::nullopt : std::optional(found->second.front());
}

std::vector<std::string> AdminArguments::values(std::string_view option) const {
    auto found = options_.find(option);
    return found == options_.end() ? std::vector<std::string>{} : found->second;
}

int64_t parse_duration_ms(std::string_view text) {
    const auto invalid = [&] {
        return AdminUsageError(
            "invalid duration \"" + std::string(text) +
            "\": use a positive number followed by d, h, m or s (e.g. 30d, 30s)");
    };
    constexpr std::size_t max_digits = 6;
    if (text.size() < 2 || text.size() > max_digits + 1) {
        throw invalid();
    }
    int64_t amount = 0;
    const auto digits = text.substr(0, text.size() - 1);
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), amount);
    if (error != std::errc{} || end != digits.data() + digits.size() || amount <= 0) {
        throw invalid();
    }
    constexpr int64_t minute_ms = 60'000;
    switch (text.back()) {
        case 's':
            return amount * 1'000;
        case 'm':
            return amount * minute_ms;
        case 'h':
            return amount * 60 * minute_ms;
        case 'd':
            return amount * 24 * 60 * minute_ms;
        default:
            throw invalid();
    }
}

}  // namespace loupe
