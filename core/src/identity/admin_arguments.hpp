#pragma once
// The option grammar of `loupe admin GROUP ACTION [--option value | --option=value]...`.

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

/// A command line `loupe admin` cannot run: exit status 2, message on stderr.
class LOUPE_API AdminUsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    ~AdminUsageError() override;  // key function: one typeinfo, in libloupe-core
};

struct AdminCommandSpec {
    std::string_view group;
    std::string_view action;
    std::vector<std::string_view> required;    ///< options that must appear once
    std::vector<std::string_view> optional;    ///< options that may appear once
    std::vector<std::string_view> repeatable;  ///< options that may appear any number of times
    std::string_view synopsis;
};

class AdminArguments {
public:
    /// Parses the words after GROUP ACTION against `spec`; throws AdminUsageError.
    AdminArguments(const AdminCommandSpec& spec, const std::vector<std::string>& words);

    const std::string& value(std::string_view option) const;
    std::optional<std::string> optional_value(std::string_view option) const;
    std::vector<std::string> values(std::string_view option) const;

private:
    std::map<std::string, std::vector<std::string>, std::less<>> options_;
};

/// "30d", "12h", "45m" as milliseconds; AdminUsageError otherwise.
LOUPE_API int64_t parse_duration_ms(std::string_view text);

}  // namespace loupe
