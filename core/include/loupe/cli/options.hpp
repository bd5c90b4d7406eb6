#pragma once
// The command-line grammar of `loupe admin` and `loupe jobs` commands, the core's and the
// plugins': `--name value`, `--name=value` and `--flag` options checked against what the
// command accepts, positional words where it takes any, and the errors and exit codes every
// command shares (2 for a command line it cannot run, 1 for an operation it refuses).
//
//     const cli::OptionSpec spec{.command = "deployments prune", .required = {"older-than"},
//                                .flags = {"dry-run", "json"}};
//     const cli::Options options(spec, args);          // throws cli::UsageError
//     const auto age = cli::duration_option(options, "older-than");

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"

namespace loupe::cli {

/// A command line the command cannot run: exit status 2, the message and the usage on stderr.
class LOUPE_API UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    ~UsageError() override;  // key function: one typeinfo, in libloupe-core
};

/// An operation the command understood and refuses (no such project, nothing to revoke):
/// exit status 1, the message on stderr.
class LOUPE_API CommandError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    ~CommandError() override;
};

struct OptionSpec {
    std::string_view command{};                  ///< named in messages: "user create"
    std::vector<std::string_view> required{};    ///< --name VALUE, exactly once
    std::vector<std::string_view> optional{};    ///< --name VALUE, at most once
    std::vector<std::string_view> repeatable{};  ///< --name VALUE, any number of times
    std::vector<std::string_view> flags{};       ///< --name without a value, at most once
    std::size_t max_positionals = 0;             ///< words that are not options
};

class LOUPE_API Options {
public:
    /// Parses `words` against `spec`; throws UsageError naming the word at fault.
    Options(const OptionSpec& spec, const std::vector<std::string>& words);

    /// A required option's value (std::logic_error for an option the spec does not require).
    const std::string& value(std::string_view name) const;
    std::optional<std::string> optional_value(std::string_view name) const;
    std::vector<std::string> values(std::string_view name) const;
    /// True when the flag or option was given.
    bool has(std::string_view name) const;
    const std::vector<std::string>& positionals() const { return positionals_; }

private:
    std::map<std::string, std::vector<std::string>, std::less<>> options_;
    std::vector<std::string> positionals_;
};

/// The duration (loupe/text/duration.hpp: "30d", "12h", "45m", "30s") given as option `name`,
/// which must be present; UsageError when it is none.
LOUPE_API std::chrono::milliseconds duration_option(const Options& options, std::string_view name);

/// `text` as a whole number in [min, max]; UsageError naming `what` otherwise.
LOUPE_API int64_t integer_argument(std::string_view text, std::string_view what, int64_t min,
                                   int64_t max);

/// The words of `loupe <command> ...` after the command's own name, and whether `--json` (which
/// may stand anywhere) was among them.
struct CommandWords {
    std::vector<std::string> words;
    bool json = false;
};
/// `args` without a leading `command` word and without every `--json`.
LOUPE_API CommandWords command_words(const std::vector<std::string>& args,
                                     std::string_view command);

/// True when the words ask for the usage: `help` or `-h` first, or `--help` anywhere.
LOUPE_API bool wants_help(const std::vector<std::string>& words);

/// Runs a command's body and turns its errors into the exit status every command shares: a
/// UsageError prints "<prefix>: <message>", a blank line and `usage` on `err` and gives 2; any
/// other std::exception (CommandError among them) prints "<prefix>: <message>" and gives 1.
/// Words that ask for help print `usage` on `out` and give 0 without running the body.
LOUPE_API int run_command(std::string_view prefix, std::string_view usage,
                          const std::vector<std::string>& words, std::ostream& out,
                          std::ostream& err, const std::function<int()>& body);

}  // namespace loupe::cli
