#pragma once
// Loupe as a SAML 2.0 service provider for one identity provider, on liblasso: the metadata the
// IdP is given, the AuthnRequest the browser carries to it (HTTP-Redirect binding, signed with
// the SP's key), and the checks of the Response it posts back (HTTP-POST binding):
//  - the signatures: the Response and its Assertion both signed by the key in the IdP's
//    metadata (lasso's FORCE hint refuses a missing or broken one), so a tampered, unsigned or
//    forged assertion never signs anyone in;
//  - the issuer is the configured IdP, the status is Success;
//  - it answers the AuthnRequest this browser's sign-in sent (InResponseTo; each request is
//    used once by the caller, so a replayed Response finds nothing to answer);
//  - the assertion is for this SP (AudienceRestriction) and within its validity
//    (NotBefore/NotOnOrAfter, one minute of clock skew allowed).
// The claims it returns have the OpenID Connect shape sign_in_identity reads (sub, email,
// email_verified, name, groups): the IdP is trusted for the email it asserts.
// THREADS: thread-safe; every call builds its own lasso objects from the stored documents.

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "loupe/json.hpp"
#include "settings/saml_providers.hpp"

namespace loupe::sso {

/// A SAML response refused, with a message for the person signing in.
class SamlRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class SamlServiceProvider {
public:
    /// `public_url`: the server's public URL, read at each call (the SP's entity id and
    /// endpoints derive from it; it is known once the server listens). Throws
    /// std::runtime_error when the IdP metadata or the SP's key cannot be used.
    SamlServiceProvider(SamlProvider provider, std::function<std::string()> public_url);

    const SamlProvider& provider() const { return provider_; }
    std::string entity_id() const;
    std::string acs_url() const;
    /// The SP's metadata (EntityDescriptor) for the IdP's administrator.
    std::string metadata_xml() const;

    struct AuthnRequest {
        std::string url;  ///< the IdP's SSO URL with the signed request and the relay state
        std::string id;   ///< the request's ID, which the Response must answer
    };
    AuthnRequest authn_request(const std::string& relay_state) const;

    /// The claims of a base64 `SAMLResponse` that answers `request_id`; throws SamlRefused.
    Json verify_response(const std::string& saml_response, const std::string& request_id,
                         int64_t now_s) const;

private:
    SamlProvider provider_;
    std::function<std::string()> public_url_;
    std::string idp_entity_id_;
};

/// Initialises liblasso once per process (xmlsec and OpenSSL inside it).
void init_saml_library();

}  // namespace loupe::sso
