#pragma once
// Signed access to a private site: `<expires_s>.<hex HMAC-SHA256>` over the site name and the
// expiry. A signed link carries it as `?loupe_access=`; the site then keeps it in a cookie
// scoped to that site. A token for one site name never opens another.

#include <cstdint>
#include <string>

namespace loupe::deployments {

class AccessTokens {
public:
    explicit AccessTokens(std::string secret);

    std::string issue(const std::string& site_name, int64_t expires_s) const;
    /// True when `token` was issued for `site_name` and has not expired at `now_s`.
    bool verify(const std::string& site_name, const std::string& token, int64_t now_s) const;
    /// The expiry written in a well-formed token (0 otherwise).
    static int64_t expiry_of(const std::string& token);

private:
    std::string mac(const std::string& site_name, int64_t expires_s) const;
    std::string secret_;
};

inline constexpr const char* access_parameter = "loupe_access";
inline constexpr const char* access_cookie = "loupe_site_access";

}  // namespace loupe::deployments
