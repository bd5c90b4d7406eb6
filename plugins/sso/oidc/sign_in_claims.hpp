#pragma once
// What an OpenID Connect sign-in takes from an ID token whose signature, `iss`, `aud` and `exp`
// already passed (jose::verify_jwt): the `nonce` must be the one this browser's sign-in sent,
// the email must be verified by the provider (`email_verified` the boolean true, nothing
// else), its domain one of the allowed domains when the provider names any, and the groups
// come from the provider's roles claim. A refusal is a message for the person signing in.

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "loupe/json.hpp"

namespace loupe::sso {

struct SignInPolicy {
    /// Lower-case domains the email must belong to exactly (no subdomains); empty: any.
    std::vector<std::string> allowed_email_domains{};
    std::string roles_claim = "groups";
};

struct SignInIdentity {
    std::string subject;              ///< `sub`: the provider's stable id of the person
    std::string email;                ///< as the provider sent it
    std::string name;                 ///< `name`, else `preferred_username`, else ""
    std::vector<std::string> groups;  ///< the roles claim: an array of strings or one string
};

struct SignInRefusal {
    std::string message;
};

/// The identity of verified claims, or why the sign-in is refused.
std::variant<SignInIdentity, SignInRefusal> sign_in_identity(const Json& claims,
                                                             std::string_view expected_nonce,
                                                             const SignInPolicy& policy);

}  // namespace loupe::sso
