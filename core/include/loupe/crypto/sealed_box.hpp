#pragma once
// Secrets kept at rest, encrypted (AES-256-GCM, authenticated): a webhook URL or a bot token an
// administrator typed is stored sealed, so a copy of the database without the key reveals
// nothing and a row altered or moved to another purpose does not open.
//   const auto sealed = crypto::seal(key, "https://hooks.example/…", "chat-target:7");
//   const auto url = crypto::open_sealed(key, sealed, "chat-target:7");  // nullopt if tampered
// `key` is 32 bytes (load_or_create_key_file gives one). `context` is authenticated but not
// stored: opening with another context fails, which binds a sealed value to its row.

#include <optional>
#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe::crypto {

inline constexpr std::size_t sealed_key_bytes = 32;

/// "v1." + base64url(12-byte random nonce | ciphertext | 16-byte tag). Throws
/// std::invalid_argument for a key that is not 32 bytes.
LOUPE_API std::string seal(std::string_view key, std::string_view plaintext,
                           std::string_view context = {});
/// The plaintext of a value `seal` made with this key and context; nullopt when the key or the
/// context differs, or the value was altered or is not a sealed value.
LOUPE_API std::optional<std::string> open_sealed(std::string_view key, std::string_view sealed,
                                                 std::string_view context = {});

/// The 32-byte key held (as 64 hex digits) in `path`; created with a random key (mode 0600)
/// when the file does not exist. Throws std::runtime_error when it holds no valid key or cannot
/// be written.
LOUPE_API std::string load_or_create_key_file(const std::string& path);

}  // namespace loupe::crypto
