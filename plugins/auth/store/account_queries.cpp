#include "store/account_queries.hpp"

#include "loupe/http/http_error.hpp"

namespace loupe::auth {

void require_team(const Account& account) {
    if (account.kind != AccountKind::team) {
        throw HttpError::bad_request("This account is not a team.");
    }
}

std::string contains_pattern(const std::string& text) {
    std::string pattern = "%";
    for (const char c : text) {
        if (c == '%' || c == '_' || c == '\\') {
            pattern += '\\';
        }
        pattern += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return pattern + "%";
}

}  // namespace loupe::auth
