#include "loupe/http/http_error.hpp"

namespace loupe {

HttpError::HttpError(int status, std::string message, std::vector<std::string> details)
    : std::runtime_error(std::move(message)), status_(status), details_(std::move(details)) {}

// Out of line on purpose: the key function pins HttpError's typeinfo in libloupe-core, so a
// plugin's `catch (const HttpError&)` and the core's agree.
HttpError::~HttpError() = default;

HttpError HttpError::invalid(std::vector<std::string> details) {
    return {400, "Invalid request", std::move(details)};
}

}  // namespace loupe
