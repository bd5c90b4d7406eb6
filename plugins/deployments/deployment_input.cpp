#include "deployment_input.hpp"

#include <algorithm>
#include <set>

#include "loupe/http/json_reader.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::deployments {
namespace {

/// A content type is echoed in a response header: printable ASCII only, and a sane length.
bool is_header_safe(const std::string& text) {
    return text.size() <= 255 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

std::optional<DeploymentFile> read_file(const Json& item, const std::string& path,
                                        Validation& validation) {
    if (!item.is_object()) {
        validation.add(path, expected_message("object", &item));
        return std::nullopt;
    }
    JsonReader reader(item, validation, path);
    const std::size_t issues_before = validation.issues().size();
    DeploymentFile file;
    if (auto name = reader.string("path", true, 1)) {
        if (auto problem = path_problem(*name)) {
            reader.issue("path", *problem);
        }
        file.path = *name;
    }
    file.hash = to_lower(reader.pattern("hash", true, sha256_pattern).value_or(""));
    if (auto size = reader.integer("size", true, INT64_MIN)) {
        if (*size <= 0) {
            reader.issue("size", "Too small: expected number to be >0");
        }
        file.size = *size;
    }
    if (auto type = reader.string("contentType", true, 1)) {
        if (!is_header_safe(*type)) {
            reader.issue("contentType",
                         "Invalid string: expected printable ASCII of at most 255 characters");
        }
        file.content_type = *type;
    }
    if (validation.issues().size() != issues_before) {
        return std::nullopt;
    }
    return file;
}

}  // namespace

std::optional<std::string> path_problem(const std::string& path) {
    if (path.size() > max_path_bytes) {
        return "Too big: expected string to have <=" + std::to_string(max_path_bytes) + " bytes";
    }
    if (path.find('\0') != std::string::npos) {
        return "Invalid path: must not contain a NUL character";
    }
    if (path.find('\\') != std::string::npos) {
        return "Invalid path: must not contain a backslash";
    }
    if (std::any_of(path.begin(), path.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; })) {
        return "Invalid path: must not contain control characters";
    }
    std::size_t start = 0;
    while (true) {
        const std::size_t slash = path.find('/', start);
        const std::string_view segment = std::string_view(path).substr(
            start, slash == std::string::npos ? slash : slash - start);
        if (segment == "..") {
            return "Invalid path: must not contain a \"..\" segment";
        }
        if (segment.empty() || segment == ".") {
            return "Invalid path: must be relative, without empty or \".\" segments";
        }
        if (slash == std::string::npos) {
            return std::nullopt;
        }
        start = slash + 1;
    }
}

DeploymentInput parse_deployment_input(Request& request) {
    const Json& body = object_body(request);
    Validation validation;
    JsonReader reader(body, validation);
    DeploymentInput input;
    input.commit = reader.pattern("commit", true, sha1_pattern).value_or("");
    input.branch = reader.string("branch", true, 1).value_or("");
    input.pr_number = reader.integer("prNumber", false, 1);
    input.environment = reader.one_of("environment", false, {"preview", "production"});
    input.spa = reader.boolean("spa");
    if (const Json* files = reader.array("files", true, 1)) {
        if (files->size() > max_files) {
            reader.issue("files", "Too big: expected array to have <=" + std::to_string(max_files) +
                                      " items");
        } else {
            input.files.reserve(files->size());
            std::set<std::string_view> paths;
            bool unique = true;
            for (std::size_t i = 0; i < files->size(); ++i) {
                auto file = read_file((*files)[i], "files." + std::to_string(i), validation);
                if (file) {
                    input.files.push_back(std::move(*file));
                }
            }
            for (const auto& file : input.files) {
                unique = paths.insert(file.path).second && unique;
            }
            if (!unique) {
                reader.issue("files", "Must be an array of files with unique paths");
            }
        }
    }
    validation.throw_if_any();
    return input;
}

}  // namespace loupe::deployments
