#include "blob/download_url.hpp"

#include <Poco/URI.h>

#include "loupe/json.hpp"

namespace loupe {

std::string signed_download_url(const std::string& public_url, const UrlSigner& signer,
                                const std::string& key, const std::string& content_type,
                                int64_t ttl_ms) {
    const int64_t expires = (now_ms() + ttl_ms) / 1000;
    std::string encoded_type;
    Poco::URI::encode(content_type, "!#$&'()*+,/:;=?@[]", encoded_type);
    return public_url + "/blobs/" + key + "?expires=" + std::to_string(expires) +
           "&contentType=" + encoded_type +
           "&signature=" + signer.sign("GET", key, content_type, expires);
}

}  // namespace loupe
