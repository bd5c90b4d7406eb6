#pragma once
// A deployment's file table as serving reads it: paths are keys, never joined onto a disk path,
// so no request path can reach a file the deployment did not declare.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "store/sites.hpp"

namespace loupe::deployments {

struct SiteFile {
    std::string hash;
    std::string content_type;
    int64_t size = 0;
    std::optional<std::string> gzip_hash;
    int64_t gzip_size = 0;
};

class SiteContent {
public:
    explicit SiteContent(const std::vector<SiteFileRow>& rows);

    const SiteFile* find(const std::string& path) const;
    /// True when some file lives below `path` ("docs" for "docs/index.html").
    bool is_directory(const std::string& path) const;
    std::size_t size() const { return files_.size(); }

private:
    std::unordered_map<std::string, SiteFile> files_;
    std::unordered_set<std::string> directories_;
};

/// Where a request path leads within a site.
struct PathResolution {
    const SiteFile* file = nullptr;   ///< null: nothing to serve (404 without a 404.html)
    int status = 200;                 ///< 404 when `file` is the site's 404.html
    bool add_trailing_slash = false;  ///< a directory asked without its '/': redirect
};

/// Static-host rules: the file itself; a directory's index.html (redirecting to add the
/// trailing slash); for a path without an extension, 200.html, or index.html when the
/// deployment is a single-page app; otherwise the site's 404.html with status 404.
PathResolution resolve_path(const SiteContent& content, const std::string& path,
                            bool trailing_slash, bool spa);

}  // namespace loupe::deployments
