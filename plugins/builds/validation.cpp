#include "validation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "loupe/http/integer_text.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::builds {
namespace {

const std::vector<std::string>& supported_content_types() {
    static const std::vector<std::string> types = {
        "image/png",        "image/jpeg",       "image/webp",
        "image/avif",       "image/gif",        "text/plain",
        "application/json", "application/yaml", "text/yaml",
        "application/xml",  "text/xml",         "text/html",
        "text/markdown",    "text/css",         "application/javascript",
        "text/javascript"};
    return types;
}

void read_string_list(JsonReader& reader, const Json& parent, const char* key) {
    (void)parent;
    const Json* list = reader.array(key, false);
    if (list == nullptr) {
        return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        if (!(*list)[i].is_string()) {
            reader.validation().add(reader.path_of(key) + "." + std::to_string(i),
                                    expected_message("string", &(*list)[i]));
        }
    }
}

Json pick(const Json& source, std::initializer_list<const char*> keys) {
    Json out = Json::object();
    for (const char* key : keys) {
        if (source.contains(key)) {
            out[key] = source[key];
        }
    }
    return out;
}

void read_name_version(JsonReader& reader, const char* key, bool required) {
    const Json* object = reader.object(key, required);
    if (object == nullptr) {
        return;
    }
    JsonReader inner(*object, reader.validation(), reader.path_of(key));
    inner.string("name", true);
    inner.string("version", true);
}

void read_location(JsonReader& reader, const char* key) {
    const Json* location = reader.object(key, false);
    if (location == nullptr) {
        return;
    }
    JsonReader inner(*location, reader.validation(), reader.path_of(key));
    inner.string("file", true);
    inner.integer("line", true, 0);
    inner.integer("column", true, 0);
}

}  // namespace

std::optional<std::string> normalize_content_type(const std::string& content_type) {
    std::string type = content_type.substr(0, content_type.find(';'));
    type.erase(
        std::remove_if(type.begin(), type.end(), [](unsigned char c) { return std::isspace(c); }),
        type.end());
    type = to_lower(type);
    const auto& types = supported_content_types();
    if (std::find(types.begin(), types.end(), type) == types.end()) {
        return std::nullopt;
    }
    return type;
}

std::string unsupported_content_type_message() {
    std::string list;
    for (const auto& type : supported_content_types()) {
        list += (list.empty() ? "" : ", ") + type;
    }
    return "Unsupported content type. Supported content types are: " + list;
}

std::optional<std::vector<std::string>> read_key_list(JsonReader& reader, const char* field,
                                                      const char* what) {
    const Json* list = reader.array(field, false);
    if (list == nullptr) {
        return std::nullopt;
    }
    std::vector<std::string> keys;
    std::set<std::string> seen;
    bool unique = true, valid = true;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const Json& item = (*list)[i];
        const auto path = reader.path_of(field) + "." + std::to_string(i);
        if (!item.is_string()) {
            reader.validation().add(path, expected_message("string", &item));
            valid = false;
            continue;
        }
        auto key = item.get<std::string>();
        if (!matches(key, sha256_pattern)) {
            reader.validation().add(
                path, std::string("Invalid string: must match pattern /") + sha256_pattern + "/");
            valid = false;
            continue;
        }
        unique = seen.insert(key).second && unique;
        keys.push_back(to_lower(key));
    }
    if (!unique) {
        reader.issue(field, "Must be an array of unique strings");
        valid = false;
    }
    if (list->size() > max_screenshots) {
        reader.issue(field, std::string("A build cannot contain more than 5000 ") + what +
                                ". Use parallel mode to split a larger test suite across several "
                                "builds.");
        valid = false;
    }
    return valid ? std::optional(keys) : std::nullopt;
}

Json read_screenshot_metadata(const Json& metadata, const std::string& path,
                              Validation& validation) {
    if (metadata.is_null()) {
        return nullptr;
    }
    if (!metadata.is_object()) {
        validation.add(path, expected_message("object", &metadata));
        return nullptr;
    }
    JsonReader reader(metadata, validation, path);
    reader.string("$schema", false);
    reader.string("url", false);
    reader.string("previewUrl", false);
    if (const Json* viewport = reader.object("viewport", false)) {
        JsonReader inner(*viewport, validation, reader.path_of("viewport"));
        inner.integer("width", true, 0);
        inner.integer("height", true, 0);
    }
    reader.one_of("colorScheme", false, {"light", "dark"});
    reader.one_of("mediaType", false, {"screen", "print"});
    if (const Json* test = reader.object("test", false)) {
        JsonReader inner(*test, validation, reader.path_of("test"));
        inner.string("id", false);
        inner.string("title", true);
        if (const Json* title_path = inner.array("titlePath", true)) {
            for (std::size_t i = 0; i < title_path->size(); ++i) {
                if (!(*title_path)[i].is_string()) {
                    validation.add(inner.path_of("titlePath") + "." + std::to_string(i),
                                   expected_message("string", &(*title_path)[i]));
                }
            }
        }
        inner.integer("retries", false, 0);
        inner.integer("retry", false, 0);
        inner.integer("repeat", false, 0);
        read_location(inner, "location");
        if (const Json* annotations = inner.array("annotations", false)) {
            for (std::size_t i = 0; i < annotations->size(); ++i) {
                const auto item_path = inner.path_of("annotations") + "." + std::to_string(i);
                if (!(*annotations)[i].is_object()) {
                    validation.add(item_path, expected_message("object", &(*annotations)[i]));
                    continue;
                }
                JsonReader annotation((*annotations)[i], validation, item_path);
                annotation.string("type", true);
                annotation.string("description", false);
                read_location(annotation, "location");
            }
        }
        read_string_list(inner, *test, "tags");
    }
    read_name_version(reader, "browser", false);
    read_name_version(reader, "automationLibrary", true);
    read_name_version(reader, "sdk", true);
    if (const Json* story = reader.object("story", false)) {
        JsonReader inner(*story, validation, reader.path_of("story"));
        inner.string("id", true);
        read_string_list(inner, *story, "tags");
        inner.string("mode", false);
        inner.boolean("play", false);
    }
    read_string_list(reader, metadata, "tags");
    return pick(metadata, {"url", "previewUrl", "viewport", "colorScheme", "mediaType", "test",
                           "browser", "automationLibrary", "sdk", "story", "tags"});
}

Json read_build_metadata(JsonReader& reader) {
    const Json* metadata = reader.object("metadata", false);
    if (metadata == nullptr) {
        return nullptr;
    }
    JsonReader inner(*metadata, reader.validation(), "metadata");
    const Json* report = inner.object("testReport", false);
    if (report == nullptr) {
        return Json::object();
    }
    JsonReader report_reader(*report, reader.validation(), "metadata.testReport");
    auto status =
        report_reader.one_of("status", true, {"passed", "failed", "timedout", "interrupted"});
    Json test_report = {{"status", status ? Json(*status) : Json()}};
    if (const Json* stats = report_reader.object("stats", false)) {
        JsonReader stats_reader(*stats, reader.validation(), "metadata.testReport.stats");
        Json clean = Json::object();
        if (auto start = stats_reader.string("startTime", false)) {
            clean["startTime"] = *start;
        }
        if (auto duration = stats_reader.number("duration", false, -1e300, 1e300)) {
            clean["duration"] = *duration;
        }
        test_report["stats"] = clean;
    }
    return Json{{"testReport", test_report}};
}

std::optional<int64_t> parse_positive_integer(const std::string& text, Validation& validation) {
    constexpr int64_t max_safe_integer = 9007199254740991;  // JavaScript's, as in Argos
    return read_positive_integer(text, max_safe_integer, validation);
}

std::optional<std::vector<std::string>> read_commit_list(JsonReader& reader, const char* field,
                                                         bool required, std::size_t min_items) {
    const Json* list = reader.array(field, required, min_items);
    if (!list) {
        return std::nullopt;
    }
    std::vector<std::string> commits;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const Json& commit = (*list)[i];
        const auto path = std::string(field) + "." + std::to_string(i);
        if (!commit.is_string()) {
            reader.validation().add(path, expected_message("string", &commit));
        } else if (!matches(commit.get<std::string>(), sha1_pattern)) {
            reader.validation().add(
                path, std::string("Invalid string: must match pattern /") + sha1_pattern + "/");
        } else {
            commits.push_back(commit.get<std::string>());
        }
    }
    return commits;
}

}  // namespace loupe::builds
