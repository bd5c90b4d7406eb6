#include "site/site_access.hpp"

#include "loupe/json.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::deployments {
namespace {

/// Every value of cookie `name` in a Cookie header ("a=1; b=2").
std::vector<std::string> cookie_values(const std::string& header, const std::string& name) {
    std::vector<std::string> values;
    std::size_t start = 0;
    while (start < header.size()) {
        std::size_t end = header.find(';', start);
        if (end == std::string::npos) {
            end = header.size();
        }
        const std::string_view pair =
            trim_start(std::string_view(header).substr(start, end - start), " ");
        if (pair.size() > name.size() && pair.starts_with(name) && pair[name.size()] == '=') {
            values.emplace_back(pair.substr(name.size() + 1));
        }
        start = end + 1;
    }
    return values;
}

}  // namespace

bool is_public_site(const ResolvedSite& site) {
    const std::string& auth = site.access.settings.auth;
    if (auth == "public") {
        return true;
    }
    if (auth == "domain-private") {
        return site.target.alias_type == "production";
    }
    if (auth == "project") {
        return !site.access.project_private;
    }
    return false;  // "private", and any value this version does not know
}

AccessRule signed_link_rule(std::function<const AccessTokens&()> tokens_of, const SiteUrls& urls) {
    return [tokens_of = std::move(tokens_of), &urls](
               Request& request, const std::string& site_name,
               const ResolvedSite&) -> std::optional<AccessGrant> {
        const AccessTokens& tokens = tokens_of();
        const int64_t now_s = now_ms() / 1000;
        if (auto token = request.query(access_parameter);
            token && tokens.verify(site_name, *token, now_s)) {
            std::string cookie = std::string(access_cookie) + "=" + *token +
                                 "; Path=" + urls.path_prefix(site_name) + "; Max-Age=" +
                                 std::to_string(AccessTokens::expiry_of(*token) - now_s) +
                                 "; HttpOnly; SameSite=Lax";
            if (urls.secure()) {
                cookie += "; Secure";
            }
            return AccessGrant{cookie};
        }
        if (auto header = request.header("Cookie")) {
            for (const auto& value : cookie_values(*header, access_cookie)) {
                if (tokens.verify(site_name, value, now_s)) {
                    return AccessGrant{};
                }
            }
        }
        return std::nullopt;
    };
}

std::optional<AccessGrant> SiteAccess::check(Request& request, const std::string& site_name,
                                             const ResolvedSite& site) const {
    if (is_public_site(site)) {
        return AccessGrant{};
    }
    for (const auto& rule : rules_) {
        if (auto grant = rule(request, site_name, site)) {
            return grant;
        }
    }
    return std::nullopt;
}

}  // namespace loupe::deployments
