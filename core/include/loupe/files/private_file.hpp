#pragma once
// Files only the server's user may read (keys, secrets), created whole or not at all: the
// content goes to a temporary file made with mode 0600 and flushed to disk, which is then linked
// into place. When the file already exists (another instance sharing the folder created it
// first), it is left as it is: the first writer wins and every instance reads the same content.
//
//     if (!files::create_private_file(path, secret)) { /* read the one that is there */ }

#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe::files {

/// Creates `path` (and its missing parent folders) holding `content`, mode 0600. False when the
/// file already existed (it is not touched). Throws std::runtime_error when it cannot be written.
LOUPE_API bool create_private_file(const std::string& path, std::string_view content);

}  // namespace loupe::files
