#pragma once
// Where a site is browsable: `{public_url}/d/{name}/`, or `{scheme}://{name}.{domain}/` when
// plugins.deployments.domain is set.

#include <functional>
#include <string>

namespace loupe::deployments {

class SiteUrls {
public:
    /// `public_url` is asked each time (the port may be known only once the server listens).
    SiteUrls(std::function<std::string()> public_url, std::string domain, std::string scheme);

    /// The site's root URL, ending in '/'.
    std::string root(const std::string& name) const;
    /// The path prefix of the site's pages ("/d/{name}/", or "/" on its own host): the scope
    /// of its access cookie.
    std::string path_prefix(const std::string& name) const;
    const std::string& domain() const { return domain_; }
    bool secure() const;

private:
    std::function<std::string()> public_url_;
    std::string domain_;
    std::string scheme_;
};

}  // namespace loupe::deployments
