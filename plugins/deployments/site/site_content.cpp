#include "site/site_content.hpp"

namespace loupe::deployments {

SiteContent::SiteContent(const std::vector<SiteFileRow>& rows) {
    files_.reserve(rows.size());
    for (const auto& row : rows) {
        files_.emplace(
            row.path, SiteFile{row.hash, row.content_type, row.size, row.gzip_hash, row.gzip_size});
        for (std::size_t slash = row.path.find('/'); slash != std::string::npos;
             slash = row.path.find('/', slash + 1)) {
            directories_.insert(row.path.substr(0, slash));
        }
    }
}

const SiteFile* SiteContent::find(const std::string& path) const {
    const auto it = files_.find(path);
    return it == files_.end() ? nullptr : &it->second;
}

bool SiteContent::is_directory(const std::string& path) const {
    return directories_.contains(path);
}

PathResolution resolve_path(const SiteContent& content, const std::string& path,
                            bool trailing_slash, bool spa) {
    PathResolution resolution;
    if (path.empty()) {
        resolution.file = content.find("index.html");
    } else if (content.is_directory(path)) {
        if (!trailing_slash) {
            resolution.add_trailing_slash = true;
            return resolution;
        }
        resolution.file = content.find(path + "/index.html");
    } else {
        resolution.file = content.find(path);
    }
    if (resolution.file != nullptr) {
        return resolution;
    }
    const std::size_t last_slash = path.rfind('/');
    const bool has_extension =
        path.find('.', last_slash == std::string::npos ? 0 : last_slash + 1) != std::string::npos;
    if (!has_extension) {
        resolution.file = content.find("200.html");
        if (resolution.file == nullptr && spa) {
            resolution.file = content.find("index.html");
        }
        if (resolution.file != nullptr) {
            return resolution;
        }
    }
    resolution.file = content.find("404.html");
    resolution.status = 404;
    return resolution;
}

}  // namespace loupe::deployments
