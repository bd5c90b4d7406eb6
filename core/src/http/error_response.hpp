#pragma once

#include <string>
#include <vector>

#include "loupe/http/response.hpp"

namespace loupe {

/// The Argos error body: {"error": message, "details": [{"message": d}, ...]},
/// "details" only when there are some.
Response error_response(int status, const std::string& message,
                        const std::vector<std::string>& details = {});

/// 500 that hides what went wrong; the dispatcher logs the cause.
inline Response internal_error_response() {
    return error_response(500, "Internal server error");
}

}  // namespace loupe
