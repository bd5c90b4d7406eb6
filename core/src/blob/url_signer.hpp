#pragma once
// HMAC-SHA256 signatures for the URLs Loupe hands out (uploads, blob downloads). The signed
// message binds the method, the blob key, the content type and the expiry, so a URL cannot be
// reused for another object, type or verb, nor after it expires.

#include <cstdint>
#include <string>

#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API UrlSigner {
public:
    explicit UrlSigner(std::string secret);

    /// Hex HMAC-SHA256 of "<method>\n<key>\n<content_type>\n<expires_s>".
    std::string sign(const std::string& method, const std::string& key,
                     const std::string& content_type, int64_t expires_s) const;
    /// Constant-time comparison against sign(); false when expired (now_s > expires_s).
    bool verify(const std::string& method, const std::string& key, const std::string& content_type,
                int64_t expires_s, const std::string& signature, int64_t now_s) const;

    /// Reads <data_dir>/secret.key, or creates it (32 random bytes, hex, mode 0600).
    static std::string load_or_create_secret(const std::string& data_dir);

private:
    std::string secret_;
};

}  // namespace loupe
