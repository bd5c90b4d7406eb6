#pragma once
// Where sites are browsable, never on the review page's origin: `{scheme}://{name}.{domain}/`
// when plugins.deployments.domain is set, else `{sites listener's public URL}/d/{name}/`.
// `name` is a slug, an alias, or a private link's key.

#include <functional>
#include <optional>
#include <string>

namespace loupe::deployments {

class SiteUrls {
public:
    /// `sites_url` is asked each time (the listener's port is known only once it listens);
    /// unused when `domain` is set.
    SiteUrls(std::function<std::string()> sites_url, std::string domain, std::string scheme);

    /// The site's root URL, ending in '/'.
    std::string root(const std::string& name) const;
    /// Empty when sites are served by the sites listener.
    const std::string& domain() const { return domain_; }

private:
    std::function<std::string()> sites_url_;
    std::string domain_;
    std::string scheme_;
};

/// The host of an absolute URL: lower-case, without port, user info or trailing dot.
std::string host_of_url(const std::string& url);

/// Why `domain` cannot hold sites next to the review page at `public_url`: it is the review
/// page's host, or a domain above it (sites would be the review host's siblings or parents, and
/// one of them could even be named like it). nullopt when it may.
std::optional<std::string> domain_problem(const std::string& domain, const std::string& public_url);

}  // namespace loupe::deployments
