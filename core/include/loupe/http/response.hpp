#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace loupe {

struct LOUPE_API Response {
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    /// When set, the core streams this file as the body instead of `body`: `file_length` bytes
    /// from `file_offset` (to the end of the file when unset; clipped to the file's size).
    std::string file_path;
    uint64_t file_offset = 0;
    std::optional<uint64_t> file_length;

    static Response json(const Json& value, int status = 200);
    static Response text(std::string body, std::string content_type, int status = 200);
    static Response file(std::string path, std::string content_type);
    static Response no_content();
    Response& with_header(std::string name, std::string value);
};

}  // namespace loupe
