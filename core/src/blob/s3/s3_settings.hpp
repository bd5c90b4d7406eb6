#pragma once
// The `blobs.s3.*` configuration of the S3 blob store, read and checked once at startup.

#include <cstdint>
#include <string>

#include "blob/s3/sigv4.hpp"
#include "loupe/config/config_view.hpp"
#include "loupe/export.hpp"

namespace loupe {

enum class S3Addressing { path, virtual_host };
enum class S3Downloads { presigned, proxy };

struct LOUPE_API S3Settings {
    std::string scheme = "https";
    std::string host;  ///< endpoint host, without the bucket
    uint16_t port = 443;
    std::string bucket;
    std::string prefix;  ///< prepended to every object name ("" or ending in '/')
    sigv4::Scope scope;  ///< region, service "s3"
    sigv4::Credentials credentials;
    S3Addressing addressing = S3Addressing::path;
    S3Downloads downloads = S3Downloads::presigned;
    int max_attempts = 4;                ///< per request, temporary failures included
    std::size_t parallel_requests = 16;  ///< exists() checks of many keys run this many at once
    int64_t retry_base_ms = 100;         ///< first pause, doubled per attempt
    int64_t timeout_ms = 30000;          ///< connect/send/receive timeout of one attempt
    uint64_t multipart_threshold = 64ull << 20;  ///< single PUT up to this size
    uint64_t part_size = 16ull << 20;

    /// Reads blobs.s3.* (credentials fall back to AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
    /// AWS_SESSION_TOKEN). Throws std::runtime_error naming the key that is missing or wrong.
    static S3Settings from_config(const ConfigView& config);

    /// The host a request carries: "<bucket>.<host>" for virtual-host addressing.
    std::string request_host() const;
    /// The Host header value: request_host() plus ":port" unless the scheme's default port.
    std::string host_header() const;
    /// The path of an object (raw, not encoded): "/<bucket>/<name>" or "/<name>"; the bucket
    /// itself for an empty name.
    std::string object_path(const std::string& name) const;
    /// scheme://host_header()
    std::string origin() const;
};

}  // namespace loupe
