#include "mail/message_id.hpp"

#include "loupe/crypto/random.hpp"

namespace loupe::notifications {

std::string new_message_id(const std::string& public_url) {
    const auto scheme = public_url.find("://");
    auto rest = public_url.substr(scheme == std::string::npos ? 0 : scheme + 3);
    rest = rest.substr(0, rest.find_first_of("/:"));
    return "<" + crypto::random_hex(16) + "@" + (rest.empty() ? "loupe.invalid" : rest) + ">";
}

}  // namespace loupe::notifications
