#pragma once

#include <string>

namespace loupe {

/// A fresh id for one request: 16 lower-case hex digits, random per process and thread.
std::string new_request_id();

}  // namespace loupe
