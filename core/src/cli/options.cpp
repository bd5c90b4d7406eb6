#include "loupe/cli/options.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "loupe/text/duration.hpp"

namespace loupe::cli {
namespace {

bool contains(const std::vector<std::string_view>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::string quoted_command(const OptionSpec& spec) {
    return "`" + std::string(spec.command) + "`";
}

}  // namespace

UsageError::~UsageError() = default;
CommandError::~CommandError() = default;

Options::Options(const OptionSpec& spec, const std::vector<std::string>& words) {
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& word = words[i];
        if (!word.starts_with("--") || word.size() == 2) {
            if (positionals_.size() >= spec.max_positionals) {
                throw UsageError("unexpected argument \"" + word + "\" for " +
                                 quoted_command(spec));
            }
            positionals_.push_back(word);
            continue;
        }
        const auto equals = word.find('=');
        const std::string name = word.substr(2, equals == std::string::npos ? equals : equals - 2);
        const bool is_flag = contains(spec.flags, name);
        if (!is_flag && !contains(spec.required, name) && !contains(spec.optional, name) &&
            !contains(spec.repeatable, name)) {
            throw UsageError("unknown option --" + name + " for " + quoted_command(spec));
        }
        std::string value;
        if (is_flag) {
            if (equals != std::string::npos) {
                throw UsageError("option --" + name + " takes no value");
            }
        } else if (equals != std::string::npos) {
            value = word.substr(equals + 1);
        } else if (i + 1 < words.size()) {
            value = words[++i];
        } else {
            throw UsageError("option --" + name + " needs a value");
        }
        auto& values = options_[name];
        if (!values.empty() && !contains(spec.repeatable, name)) {
            throw UsageError("option --" + name + " is given more than once");
        }
        values.push_back(std::move(value));
    }
    for (std::string_view name : spec.required) {
        if (options_.find(name) == options_.end()) {
            throw UsageError(quoted_command(spec) + " needs --" + std::string(name));
        }
    }
}

const std::string& Options::value(std::string_view name) const {
    const auto found = options_.find(name);
    if (found == options_.end()) {
        throw std::logic_error("option --" + std::string(name) + " was not parsed");
    }
    return found->second.front();
}

std::optional<std::string> Options::optional_value(std::string_view name) const {
    const auto found = options_.find(name);
    return found == options_.end() ? std::nullopt : std::optional(found->second.front());
}

std::vector<std::string> Options::values(std::string_view name) const {
    const auto found = options_.find(name);
    return found == options_.end() ? std::vector<std::string>{} : found->second;
}

bool Options::has(std::string_view name) const {
    return options_.find(name) != options_.end();
}

std::chrono::milliseconds duration_option(const Options& options, std::string_view name) {
    const std::string& text = options.value(name);
    const auto duration = parse_duration(text);
    if (!duration) {
        throw UsageError("invalid duration \"" + text +
                         "\": use a positive number followed by d, h, m or s (e.g. 30d, 30s)");
    }
    return *duration;
}

int64_t integer_argument(std::string_view text, std::string_view what, int64_t min, int64_t max) {
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc{} && end == text.data() + text.size() && !text.empty() && value >= min &&
        value <= max) {
        return value;
    }
    const std::string range =
        min == 1 && max == std::numeric_limits<int64_t>::max()
            ? "a positive integer"
            : "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
    throw UsageError(std::string(what) + " must be " + range + ", got \"" + std::string(text) +
                     "\"");
}

CommandWords command_words(const std::vector<std::string>& args, std::string_view command) {
    CommandWords result;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i == 0 && args[i] == command) {
            continue;
        }
        if (args[i] == "--json") {
            result.json = true;
        } else {
            result.words.push_back(args[i]);
        }
    }
    return result;
}

bool wants_help(const std::vector<std::string>& words) {
    if (!words.empty() && (words[0] == "help" || words[0] == "-h")) {
        return true;
    }
    return std::find(words.begin(), words.end(), "--help") != words.end();
}

int run_command(std::string_view prefix, std::string_view usage,
                const std::vector<std::string>& words, std::ostream& out, std::ostream& err,
                const std::function<int()>& body) {
    if (wants_help(words)) {
        out << usage;
        return 0;
    }
    try {
        return body();
    } catch (const UsageError& error) {
        err << prefix << ": " << error.what() << "\n\n" << usage;
        return 2;
    } catch (const std::exception& error) {
        err << prefix << ": " << error.what() << "\n";
        return 1;
    }
}

}  // namespace loupe::cli
