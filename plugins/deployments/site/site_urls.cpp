#include "site/site_urls.hpp"

#include "loupe/text/strings.hpp"

namespace loupe::deployments {

std::string host_of_url(const std::string& url) {
    std::size_t start = url.find("://");
    start = start == std::string::npos ? 0 : start + 3;
    std::string authority = url.substr(start, url.find_first_of("/?#", start) - start);
    authority =
        authority.substr(authority.rfind('@') == std::string::npos ? 0 : authority.rfind('@') + 1);
    std::string host;
    if (authority.starts_with('[')) {
        host = authority.substr(0, authority.find(']') + 1);
    } else {
        host = authority.substr(0, authority.find(':'));
    }
    return to_lower(trim_end(host, "."));
}

SiteUrls::SiteUrls(std::function<std::string()> sites_url, std::string domain, std::string scheme)
    : sites_url_(std::move(sites_url)), domain_(std::move(domain)), scheme_(std::move(scheme)) {}

std::string SiteUrls::root(const std::string& name) const {
    if (!domain_.empty()) {
        return scheme_ + "://" + name + "." + domain_ + "/";
    }
    return sites_url_() + "/d/" + name + "/";
}

std::optional<std::string> domain_problem(const std::string& domain,
                                          const std::string& public_url) {
    const std::string host = host_of_url(public_url);
    if (domain == host) {
        return "plugins.deployments.domain (" + domain +
               ") is the host of http.public_url: sites must not share the review page's host";
    }
    if (host.size() > domain.size() && host.ends_with("." + domain)) {
        return "plugins.deployments.domain (" + domain + ") is a parent domain of " + host +
               ", the host of http.public_url: sites would be the review page's neighbours (a "
               "site could even be named like it). Use a separate registrable domain, such as "
               "example-sites.com for loupe.example.com";
    }
    return std::nullopt;
}

}  // namespace loupe::deployments
