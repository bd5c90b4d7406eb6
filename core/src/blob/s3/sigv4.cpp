#include "blob/s3/sigv4.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/encoding.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::sigv4 {
namespace {

using crypto::hmac_sha256;
using crypto::sha256_hex;
using crypto::to_hex;

/// Trims a header value and collapses inner runs of spaces to one.
std::string canonical_value(std::string_view value) {
    std::string out;
    bool space = false;
    for (char c : value) {
        if (c == ' ' || c == '\t') {
            space = !out.empty();
            continue;
        }
        if (space) {
            out += ' ';
            space = false;
        }
        out += c;
    }
    return out;
}

struct CanonicalHeaders {
    std::string lines;    ///< "name:value\n" each, sorted by name
    std::string signed_;  ///< "name;name"
};

CanonicalHeaders canonical_headers(const Request& request) {
    std::map<std::string, std::string> merged;
    for (const auto& [name, value] : request.headers) {
        auto& slot = merged[to_lower(name)];
        slot += (slot.empty() ? "" : ",") + canonical_value(value);
    }
    CanonicalHeaders out;
    for (const auto& [name, value] : merged) {
        out.lines += name + ":" + value + "\n";
        out.signed_ += (out.signed_.empty() ? "" : ";") + name;
    }
    return out;
}

std::string canonical_query(std::vector<std::pair<std::string, std::string>> query) {
    for (auto& [name, value] : query) {
        name = uri_encode(name, true);
        value = uri_encode(value, true);
    }
    std::sort(query.begin(), query.end());
    std::string out;
    for (const auto& [name, value] : query) {
        out += (out.empty() ? "" : "&") + name + "=" + value;
    }
    return out;
}

std::string signature(const Credentials& credentials, const Scope& scope,
                      const std::string& amz_date_value, const std::string& canonical) {
    const std::string date = amz_date_value.substr(0, 8);
    return to_hex(hmac_sha256(signing_key(credentials.secret_key, date, scope),
                              string_to_sign(amz_date_value, scope, canonical)));
}

}  // namespace

std::string uri_encode(std::string_view text, bool encode_slash) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '-' || c == '_' || c == '.' || c == '~' ||
            (c == '/' && !encode_slash)) {
            out += c;
        } else {
            out += '%';
            out += hex[byte >> 4];
            out += hex[byte & 15];
        }
    }
    return out;
}

std::string amz_date(int64_t epoch_s) {
    const std::time_t time = static_cast<std::time_t>(epoch_s);
    std::tm utc{};
    gmtime_r(&time, &utc);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y%m%dT%H%M%SZ", &utc);
    return buffer;
}

std::string canonical_request(const Request& request) {
    const auto headers = canonical_headers(request);
    return request.method + "\n" + uri_encode(request.path, false) + "\n" +
           canonical_query(request.query) + "\n" + headers.lines + "\n" + headers.signed_ + "\n" +
           request.payload_hash;
}

std::string credential_scope(const std::string& date, const Scope& scope) {
    return date + "/" + scope.region + "/" + scope.service + "/aws4_request";
}

std::string string_to_sign(const std::string& amz_date_value, const Scope& scope,
                           const std::string& canonical) {
    return "AWS4-HMAC-SHA256\n" + amz_date_value + "\n" +
           credential_scope(amz_date_value.substr(0, 8), scope) + "\n" + sha256_hex(canonical);
}

std::string signing_key(const std::string& secret_key, const std::string& date,
                        const Scope& scope) {
    const auto date_key = hmac_sha256("AWS4" + secret_key, date);
    const auto region_key = hmac_sha256(date_key, scope.region);
    const auto service_key = hmac_sha256(region_key, scope.service);
    return hmac_sha256(service_key, "aws4_request");
}

std::string authorization(const Request& request, const Credentials& credentials,
                          const Scope& scope, const std::string& amz_date_value) {
    const auto canonical = canonical_request(request);
    return "AWS4-HMAC-SHA256 Credential=" + credentials.access_key + "/" +
           credential_scope(amz_date_value.substr(0, 8), scope) +
           ", SignedHeaders=" + canonical_headers(request).signed_ +
           ", Signature=" + signature(credentials, scope, amz_date_value, canonical);
}

std::string presigned_query(const Request& request, const Credentials& credentials,
                            const Scope& scope, const std::string& amz_date_value,
                            int64_t expires_s) {
    Request signed_request = request;
    auto& query = signed_request.query;
    query.emplace_back("X-Amz-Algorithm", "AWS4-HMAC-SHA256");
    query.emplace_back(
        "X-Amz-Credential",
        credentials.access_key + "/" + credential_scope(amz_date_value.substr(0, 8), scope));
    query.emplace_back("X-Amz-Date", amz_date_value);
    query.emplace_back("X-Amz-Expires", std::to_string(expires_s));
    if (!credentials.session_token.empty()) {
        query.emplace_back("X-Amz-Security-Token", credentials.session_token);
    }
    query.emplace_back("X-Amz-SignedHeaders", canonical_headers(request).signed_);
    signed_request.payload_hash = unsigned_payload;
    const auto canonical = canonical_request(signed_request);
    return canonical_query(query) +
           "&X-Amz-Signature=" + signature(credentials, scope, amz_date_value, canonical);
}

std::string policy_signature(const std::string& policy_base64, const Credentials& credentials,
                             const Scope& scope, const std::string& date) {
    return to_hex(hmac_sha256(signing_key(credentials.secret_key, date, scope), policy_base64));
}

}  // namespace loupe::sigv4
