#pragma once
// JSON is nlohmann::json everywhere. Validation helpers produce the Argos detail messages
// ("<dotted path> is <zod-style message>") so every plugin words errors the same way.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

using Json = nlohmann::json;

/// Collects validation issues; `throw_if_any()` raises HttpError::invalid with all of them.
class LOUPE_API Validation {
public:
    void add(std::string_view path, std::string_view message);
    bool empty() const { return issues_.empty(); }
    const std::vector<std::string>& issues() const { return issues_; }
    void throw_if_any() const;

private:
    std::vector<std::string> issues_;
};

/// zod-style name of a JSON value's type: "string", "number", "array", "undefined", ...
LOUPE_API std::string json_type_name(const Json* value);
/// "Invalid input: expected <expected>, received <actual>"
LOUPE_API std::string expected_message(std::string_view expected, const Json* actual);

/// Current time as epoch milliseconds, and its ISO-8601 UTC form with milliseconds.
LOUPE_API int64_t now_ms();
LOUPE_API std::string iso_time(int64_t epoch_ms);
/// Parses ISO-8601 with Z or ±hh:mm offset (seconds optional); nullopt if invalid.
LOUPE_API std::optional<int64_t> parse_iso_time(std::string_view text);

}  // namespace loupe
