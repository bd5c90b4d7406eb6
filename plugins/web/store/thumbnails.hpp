#pragma once
// The web_thumbnails rows: which blob holds the thumbnail of a source blob at a variant (size).

#include <soci/soci.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace loupe::web::thumbnails {

std::optional<std::string> find(soci::session& session, const std::string& source_key,
                                const std::string& variant);
/// Records the thumbnail; a concurrent request that made the same one first wins (same bytes).
void record(soci::session& session, const std::string& source_key, const std::string& variant,
            const std::string& thumbnail_key, int64_t now);

/// Of `keys`, the thumbnails recorded here, each with the blob it was made from.
std::map<std::string, std::string> sources_of(soci::session& session,
                                              const std::vector<std::string>& keys);

}  // namespace loupe::web::thumbnails
