#pragma once
// SHA-256 and HMAC-SHA256 on OpenSSL (SHA-NI where the CPU has it). Digests come as raw bytes
// in a std::string, or as lower-case hex.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "loupe/export.hpp"

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX

namespace loupe::crypto {

inline constexpr std::size_t sha256_size = 32;

/// The 32 bytes of SHA-256(data).
LOUPE_API std::string sha256(std::string_view data);
/// SHA-256(data) as 64 lower-case hex digits.
LOUPE_API std::string sha256_hex(std::string_view data);

/// SHA-256 over data that arrives in pieces (an upload, a file).
/// THREADS: one thread at a time.
class LOUPE_API Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(Sha256&&) noexcept;
    Sha256& operator=(Sha256&&) noexcept;
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(std::string_view data);
    void update(const void* data, std::size_t size);
    /// The 32 bytes of the digest; the object then starts over, empty.
    std::string finish();
    std::string finish_hex();

private:
    struct Free {
        void operator()(evp_md_ctx_st* context) const;
    };
    std::unique_ptr<evp_md_ctx_st, Free> context_;
};

/// The 32 bytes of HMAC-SHA256(key, data).
LOUPE_API std::string hmac_sha256(std::string_view key, std::string_view data);
/// HMAC-SHA256(key, data) as 64 lower-case hex digits.
LOUPE_API std::string hmac_sha256_hex(std::string_view key, std::string_view data);

/// True when `a` and `b` hold the same bytes, in a time that depends on their lengths only
/// (never on where they differ): for signatures, MACs and token digests.
LOUPE_API bool equal_in_constant_time(std::string_view a, std::string_view b);

}  // namespace loupe::crypto
