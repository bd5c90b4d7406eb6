#pragma once
// The one exception handlers throw on purpose. The core turns it into the Argos error body
// {"error": message, "details": [{"message": ...}]} ("details" only when non-empty).
// Its key function lives in libloupe-core, so its typeinfo is unique across plugins.

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API HttpError : public std::runtime_error {
public:
    HttpError(int status, std::string message, std::vector<std::string> details = {});
    ~HttpError() override;

    int status() const noexcept { return status_; }
    const std::vector<std::string>& details() const noexcept { return details_; }

    /// 400 "Invalid request" with one detail per validation issue.
    static HttpError invalid(std::vector<std::string> details);
    static HttpError bad_request(std::string message) { return {400, std::move(message)}; }
    static HttpError unauthorized(std::string message = "Unauthorized") {
        return {401, std::move(message)};
    }
    static HttpError forbidden(std::string message = "Forbidden") {
        return {403, std::move(message)};
    }
    static HttpError not_found(std::string message = "Not found") {
        return {404, std::move(message)};
    }
    static HttpError conflict(std::string message) { return {409, std::move(message)}; }

private:
    int status_;
    std::vector<std::string> details_;
};

}  // namespace loupe
