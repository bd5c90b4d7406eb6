#include "blob/s3/s3_settings.hpp"

#include <Poco/URI.h>

#include <cstdlib>
#include <stdexcept>

namespace loupe {
namespace {

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

std::runtime_error config_error(const std::string& key, const std::string& message) {
    return std::runtime_error("blobs.s3." + key + ": " + message);
}

bool is_valid_bucket(const std::string& bucket) {
    if (bucket.size() < 3 || bucket.size() > 63) {
        return false;
    }
    for (char c : bucket) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) {
            return false;
        }
    }
    return true;
}

}  // namespace

S3Settings S3Settings::from_config(const ConfigView& config) {
    S3Settings settings;
    settings.bucket = config.get_string("blobs.s3.bucket", "");
    if (!is_valid_bucket(settings.bucket)) {
        throw config_error("bucket", "a bucket name is required (3-63 of a-z 0-9 . -), got '" +
                                         settings.bucket + "'");
    }
    settings.scope.region = config.get_string("blobs.s3.region", "us-east-1");
    if (settings.scope.region.empty()) {
        throw config_error("region", "must not be empty");
    }
    auto endpoint = config.get_string("blobs.s3.endpoint", "");
    if (endpoint.empty()) {
        endpoint = "https://s3." + settings.scope.region + ".amazonaws.com";
    }
    Poco::URI uri;
    try {
        uri = Poco::URI(endpoint);
    } catch (const std::exception& error) {
        throw config_error("endpoint", "not a URL: " + endpoint);
    }
    if ((uri.getScheme() != "http" && uri.getScheme() != "https") || uri.getHost().empty() ||
        (uri.getPath() != "" && uri.getPath() != "/")) {
        throw config_error("endpoint",
                           "expected http(s)://host[:port] without a path, got " + endpoint);
    }
    settings.scheme = uri.getScheme();
    settings.host = uri.getHost();
    settings.port = uri.getPort();

    settings.prefix = config.get_string("blobs.s3.prefix", "");
    while (settings.prefix.starts_with('/')) {
        settings.prefix.erase(0, 1);
    }
    if (!settings.prefix.empty() && !settings.prefix.ends_with('/')) {
        settings.prefix += '/';
    }

    auto& credentials = settings.credentials;
    credentials.access_key = config.get_string("blobs.s3.access_key_id", "");
    credentials.secret_key = config.get_string("blobs.s3.secret_access_key", "");
    if (credentials.access_key.empty() && credentials.secret_key.empty()) {
        credentials.access_key = environment("AWS_ACCESS_KEY_ID");
        credentials.secret_key = environment("AWS_SECRET_ACCESS_KEY");
        credentials.session_token = environment("AWS_SESSION_TOKEN");
    }
    if (credentials.access_key.empty() || credentials.secret_key.empty()) {
        throw config_error("access_key_id",
                           "credentials are required: set blobs.s3.access_key_id and "
                           "blobs.s3.secret_access_key, or AWS_ACCESS_KEY_ID and "
                           "AWS_SECRET_ACCESS_KEY");
    }

    const auto addressing = config.get_string("blobs.s3.addressing", "auto");
    if (addressing == "path") {
        settings.addressing = S3Addressing::path;
    } else if (addressing == "virtual") {
        settings.addressing = S3Addressing::virtual_host;
    } else if (addressing == "auto") {
        // AWS wants virtual-host names; MinIO, Ceph, Garage and local servers expect paths.
        settings.addressing = settings.host.ends_with(".amazonaws.com") &&
                                      settings.bucket.find('.') == std::string::npos
                                  ? S3Addressing::virtual_host
                                  : S3Addressing::path;
    } else {
        throw config_error("addressing", "expected auto, path or virtual, got " + addressing);
    }

    const auto downloads = config.get_string("blobs.s3.downloads", "presigned");
    if (downloads == "presigned") {
        settings.downloads = S3Downloads::presigned;
    } else if (downloads == "proxy") {
        settings.downloads = S3Downloads::proxy;
    } else {
        throw config_error("downloads", "expected presigned or proxy, got " + downloads);
    }

    settings.max_attempts = static_cast<int>(config.get_int("blobs.s3.max_attempts", 4));
    const auto parallel = config.get_int("blobs.s3.parallel_requests", 16);
    if (parallel < 1 || parallel > 256) {
        throw config_error("parallel_requests", "expected 1 to 256");
    }
    settings.parallel_requests = static_cast<std::size_t>(parallel);
    settings.retry_base_ms = config.get_int("blobs.s3.retry_base_ms", 100);
    settings.timeout_ms = config.get_int("blobs.s3.timeout_ms", 30000);
    if (settings.max_attempts < 1 || settings.retry_base_ms < 0 || settings.timeout_ms < 1) {
        throw config_error("max_attempts",
                           "max_attempts >= 1, retry_base_ms >= 0 and timeout_ms >= 1 required");
    }
    const auto threshold = config.get_int("blobs.s3.multipart_threshold_bytes", 64ll << 20);
    const auto part = config.get_int("blobs.s3.part_size_bytes", 16ll << 20);
    if (part < (5ll << 20) || threshold < part) {
        throw config_error("part_size_bytes",
                           "parts must be at least 5 MiB and not above the multipart threshold");
    }
    settings.multipart_threshold = static_cast<uint64_t>(threshold);
    settings.part_size = static_cast<uint64_t>(part);
    return settings;
}

std::string S3Settings::request_host() const {
    return addressing == S3Addressing::virtual_host ? bucket + "." + host : host;
}

std::string S3Settings::host_header() const {
    const bool default_port =
        (scheme == "https" && port == 443) || (scheme == "http" && port == 80);
    return default_port ? request_host() : request_host() + ":" + std::to_string(port);
}

std::string S3Settings::object_path(const std::string& name) const {
    if (addressing == S3Addressing::virtual_host) {
        return "/" + name;
    }
    return name.empty() ? "/" + bucket : "/" + bucket + "/" + name;
}

std::string S3Settings::origin() const {
    return scheme + "://" + host_header();
}

}  // namespace loupe
