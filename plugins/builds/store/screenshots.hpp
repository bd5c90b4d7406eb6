#pragma once
// Screenshot rows of a build and the tests they belong to.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

struct ScreenshotInput {
    std::string key;
    std::string name;
    Json base_names;  ///< array of candidate names or null
    std::optional<std::string> parent_name;
    Json metadata;
    std::optional<std::string> pw_trace_key;
    std::optional<double> threshold;
    std::string content_type = "image/png";
};

/// A stored screenshot (rendered as the diff list's Snapshot).
struct Screenshot {
    int64_t id = 0;
    int64_t build_id = 0;
    std::string name;
    std::string key;
    std::string content_type = "image/png";
    Json base_names;
    std::optional<std::string> parent_name;
    Json metadata;
    std::optional<double> threshold;
    std::optional<int64_t> test_id;
    std::optional<int64_t> width;
    std::optional<int64_t> height;
    std::optional<std::string> pw_trace_key;  ///< the Playwright trace recorded with it
};

/// True for the content types the diff engine decodes (PNG, JPEG); other files compare by hash.
bool is_image_content_type(const std::string& content_type);

/// What to read of a screenshot: its metadata is the large part, and few callers need it.
enum class ScreenshotFields { all, without_metadata };

/// The build's screenshots in insertion order.
std::vector<Screenshot> build_screenshots(soci::session& session, int64_t build_id,
                                          ScreenshotFields fields = ScreenshotFields::all);
/// Screenshots by id (missing ids are absent from the map).
std::map<int64_t, Screenshot> screenshots_by_id(soci::session& session,
                                                const std::vector<int64_t>& ids,
                                                ScreenshotFields fields = ScreenshotFields::all);
/// Records decoded dimensions.
void set_screenshot_dimensions(soci::session& session, int64_t id, int64_t width, int64_t height);
/// Records the dimensions of many screenshots in one statement.
void set_screenshot_dimensions(soci::session& session, const std::vector<Screenshot>& sized);

struct StoredFile {
    std::string key;
    std::string content_type;
};
/// The distinct files of a build's screenshots whose dimensions are not known yet.
std::vector<StoredFile> files_without_dimensions(soci::session& session, int64_t build_id);

/// How many screenshots the build holds.
int64_t count_build_screenshots(soci::session& session, int64_t build_id);

/// name → key of the screenshots already stored for a build.
std::map<std::string, std::string> stored_screenshot_names(soci::session& session,
                                                           int64_t build_id);

/// Inserts screenshots with Argos's naming rules: same name and key → skipped;
/// same name, other key → `name-1`, `name-2`, ... (first free, also within this batch). Each is
/// linked to the test (project, build name, final name), created on first sight.
/// Returns how many rows were inserted.
int insert_screenshots(soci::session& session, int64_t project_id, int64_t build_id,
                       const std::string& build_name, const std::vector<ScreenshotInput>& inputs);

}  // namespace loupe::builds
