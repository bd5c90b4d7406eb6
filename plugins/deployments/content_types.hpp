#pragma once

#include <string>

namespace loupe::deployments {

/// True for content types worth compressing (text, scripts, JSON, XML, SVG, WebAssembly, fonts
/// without their own compression, icons).
bool is_compressible_type(const std::string& content_type);

}  // namespace loupe::deployments
