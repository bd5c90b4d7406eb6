#include "store/secrets.hpp"

#include <soci/soci.h>

#include "loupe/crypto/random.hpp"
#include "loupe/json.hpp"

namespace loupe::deployments {

std::string load_or_create_secret(soci::session& session, const std::string& name) {
    const std::string candidate = crypto::random_hex(32);
    const int64_t now = now_ms();
    // Two instances starting together both try; the first insert wins and both read it back.
    session << "INSERT INTO deployment_secrets (name, secret, created_at) VALUES (:name, "
               ":secret, :now) ON CONFLICT (name) DO NOTHING",
        soci::use(name, "name"), soci::use(candidate, "secret"), soci::use(now, "now");
    std::string secret;
    session << "SELECT secret FROM deployment_secrets WHERE name = :name", soci::use(name, "name"),
        soci::into(secret);
    return secret;
}

}  // namespace loupe::deployments
