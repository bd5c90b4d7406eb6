#include "site/site_urls.hpp"

namespace loupe::deployments {

SiteUrls::SiteUrls(std::function<std::string()> public_url, std::string domain, std::string scheme)
    : public_url_(std::move(public_url)), domain_(std::move(domain)), scheme_(std::move(scheme)) {}

std::string SiteUrls::root(const std::string& name) const {
    if (!domain_.empty()) {
        return scheme_ + "://" + name + "." + domain_ + "/";
    }
    return public_url_() + path_prefix(name);
}

std::string SiteUrls::path_prefix(const std::string& name) const {
    return domain_.empty() ? "/d/" + name + "/" : "/";
}

bool SiteUrls::secure() const {
    if (!domain_.empty()) {
        return scheme_ == "https";
    }
    return public_url_().starts_with("https://");
}

}  // namespace loupe::deployments
