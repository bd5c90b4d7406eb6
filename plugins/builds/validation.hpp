#pragma once
// Field rules shared by the builds endpoints: POST /builds, PUT /builds/{id} and screenshot
// metadata.

#include <optional>
#include <string>
#include <vector>

#include "loupe/http/json_reader.hpp"

namespace loupe::builds {

inline constexpr std::size_t max_screenshots = 5000;

/// Lower-cased content type without parameters when supported; nullopt otherwise.
std::optional<std::string> normalize_content_type(const std::string& content_type);
/// "Unsupported content type. Supported content types are: image/png, ..."
std::string unsupported_content_type_message();

/// A unique list of SHA-256 keys (`screenshotKeys`, `pwTraceKeys`), lower-cased.
std::optional<std::vector<std::string>> read_key_list(JsonReader& reader, const char* field,
                                                      const char* what);

/// An array of SHA-1 commits (`parentCommits`, `commits`); issues under `field.N`. Returns the
/// valid commits (nullopt when the field is absent or not an array).
std::optional<std::vector<std::string>> read_commit_list(JsonReader& reader, const char* field,
                                                         bool required, std::size_t min_items = 0);

/// Screenshot metadata (the Argos SDKs' schema); adds issues under `path`. Returns the cleaned
/// object (unknown keys dropped) or null.
Json read_screenshot_metadata(const Json& metadata, const std::string& path,
                              Validation& validation);

/// Build metadata `{testReport?: {status, stats?: {startTime?, duration?}}}`.
Json read_build_metadata(JsonReader& reader);

/// A path segment (`buildNumber`) as a positive integer: decimal digits only, at most 2^53 - 1,
/// with the Argos empty-path messages.
std::optional<int64_t> parse_positive_integer(const std::string& text, Validation& validation);

}  // namespace loupe::builds
