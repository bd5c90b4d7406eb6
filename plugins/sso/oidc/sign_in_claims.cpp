#include "oidc/sign_in_claims.hpp"

#include <algorithm>

#include "loupe/crypto/digest.hpp"

namespace loupe::sso {
namespace {

std::string string_claim(const Json& claims, const char* name) {
    const auto found = claims.find(name);
    return found != claims.end() && found->is_string() ? found->get<std::string>() : "";
}

std::string lower_ascii(std::string text) {
    std::ranges::transform(text, text.begin(), [](char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    });
    return text;
}

/// The groups of the roles claim; other values (numbers, objects) are left out.
std::vector<std::string> groups_of(const Json& claims, const std::string& roles_claim) {
    std::vector<std::string> groups;
    const auto found = claims.find(roles_claim);
    if (found == claims.end()) {
        return groups;
    }
    if (found->is_string()) {
        groups.push_back(found->get<std::string>());
    } else if (found->is_array()) {
        for (const auto& group : *found) {
            if (group.is_string()) {
                groups.push_back(group.get<std::string>());
            }
        }
    }
    return groups;
}

}  // namespace

std::variant<SignInIdentity, SignInRefusal> sign_in_identity(const Json& claims,
                                                             std::string_view expected_nonce,
                                                             const SignInPolicy& policy) {
    if (!claims.is_object()) {
        return SignInRefusal{"The identity provider's ID token holds no claims"};
    }
    // The nonce binds the token to this browser's sign-in: a token replayed from another
    // sign-in carries another nonce.
    const std::string nonce = string_claim(claims, "nonce");
    if (expected_nonce.empty() || nonce.empty() ||
        !crypto::equal_in_constant_time(nonce, expected_nonce)) {
        return SignInRefusal{"The ID token's nonce is not the one this sign-in sent"};
    }
    SignInIdentity identity;
    identity.subject = string_claim(claims, "sub");
    if (identity.subject.empty()) {
        return SignInRefusal{"The ID token names no subject (sub)"};
    }
    identity.email = string_claim(claims, "email");
    const auto at = identity.email.rfind('@');
    if (at == std::string::npos || at == 0 || at + 1 == identity.email.size()) {
        return SignInRefusal{
            "The identity provider sent no email address: grant the email scope to Loupe"};
    }
    // Only a verified address may link to an existing user: anyone could type another's.
    const auto verified = claims.find("email_verified");
    if (verified == claims.end() || !verified->is_boolean() || !verified->get<bool>()) {
        return SignInRefusal{"The identity provider has not verified the email address " +
                             identity.email};
    }
    const std::string domain = lower_ascii(identity.email.substr(at + 1));
    if (!policy.allowed_email_domains.empty() &&
        std::ranges::find(policy.allowed_email_domains, domain) ==
            policy.allowed_email_domains.end()) {
        return SignInRefusal{"Email addresses of " + domain + " may not sign in to Loupe"};
    }
    identity.name = string_claim(claims, "name");
    if (identity.name.empty()) {
        identity.name = string_claim(claims, "preferred_username");
    }
    identity.groups = groups_of(claims, policy.roles_claim);
    return identity;
}

}  // namespace loupe::sso
