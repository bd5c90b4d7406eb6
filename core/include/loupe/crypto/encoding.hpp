#pragma once
// Bytes as text: hex, base64 (RFC 4648 §4) and base64url (§5, the JOSE and URL alphabet).
// Decoders are strict: a character outside the alphabet (whitespace included), a misplaced '='
// or a length no encoder produces gives nullopt.

#include <optional>
#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe::crypto {

/// Lower-case hex digits, two per byte.
LOUPE_API std::string to_hex(std::string_view bytes);
/// The bytes of an even number of hex digits (either case).
LOUPE_API std::optional<std::string> from_hex(std::string_view hex);

/// Standard base64 with '=' padding.
LOUPE_API std::string base64_encode(std::string_view bytes);
/// Standard base64, with or without its '=' padding.
LOUPE_API std::optional<std::string> base64_decode(std::string_view text);

/// base64url without padding, as JWS and URLs want it.
LOUPE_API std::string base64url_encode(std::string_view bytes);
/// base64url, with or without '=' padding.
LOUPE_API std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace loupe::crypto
