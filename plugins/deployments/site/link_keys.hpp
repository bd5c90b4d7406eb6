#pragma once
// Keys of private-site links. A link is a row (store/links.hpp); its key is 32 characters of
// [a-z2-7]: the base32 of an HMAC-SHA256 over the row's id, with a secret the plugin keeps in
// its deployment_secrets table (so every instance derives the same key, and the API can hand
// out a link it issued before again). The table stores only the key's SHA-256. A key holds no
// dash, so it never reads as a slug or an alias: it stands where the site's name stands
// ({key}.{domain}, or /d/{key}/ on the sites listener), and every request of the site's page
// (its scripts, styles, fetches, in a sandbox that sends no cookie) carries it.

#include <cstdint>
#include <string>
#include <string_view>

namespace loupe::deployments {

inline constexpr std::size_t link_key_length = 32;

class LinkKeys {
public:
    /// Throws std::invalid_argument for an empty secret.
    explicit LinkKeys(std::string secret);
    std::string key_of(int64_t link_id) const;

private:
    std::string secret_;
};

/// True for what LinkKeys makes (checked before any database look-up).
bool is_link_key(std::string_view label);
/// Lower-case hex SHA-256 of a key: what the table stores.
std::string link_key_hash(std::string_view key);

}  // namespace loupe::deployments
