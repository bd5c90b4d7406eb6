#pragma once
// Loupe's own signed download URL, `<public url>/blobs/<key>?expires&contentType&signature`,
// served by GET /blobs/{key} from whichever store holds the blob.

#include <cstdint>
#include <string>

#include "blob/url_signer.hpp"

namespace loupe {

std::string signed_download_url(const std::string& public_url, const UrlSigner& signer,
                                const std::string& key, const std::string& content_type,
                                int64_t ttl_ms);

}  // namespace loupe
