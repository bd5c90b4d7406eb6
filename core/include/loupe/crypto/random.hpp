#pragma once
// Secrets from the operating system's CSPRNG (through OpenSSL): session and link tokens, ids
// nobody may guess, keys. Each call throws std::runtime_error when no random bytes are to be
// had, never returns weaker ones.

#include <cstddef>
#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe::crypto {

/// `count` random bytes.
LOUPE_API std::string random_bytes(std::size_t count);
/// `bytes` random bytes as 2 × `bytes` lower-case hex digits.
LOUPE_API std::string random_hex(std::size_t bytes);
/// `bytes` random bytes in unpadded base64url (URL- and cookie-safe).
LOUPE_API std::string random_base64url(std::size_t bytes);
/// `count` characters drawn uniformly from `alphabet` (2 to 256 characters): bytes that would
/// favour the alphabet's first characters are drawn again, so there is no modulo bias.
LOUPE_API std::string random_characters(std::size_t count, std::string_view alphabet);

}  // namespace loupe::crypto
