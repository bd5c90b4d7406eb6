#pragma once
// Extra bearer-token kinds contributed by plugins (e.g. "tokenless-github-" from auth).
// The core tries them, longest prefix first, after its own `arp_` rule and before the
// project-token lookup; `argos_oat_` (OAuth access tokens) goes only to a plugin resolver. A
// resolver returns the principal (a project, or a user for OAuth access tokens) or throws
// HttpError (401/403/...).
//
// Session resolvers (a browser's cookie, from the web plugin) run only for a request that
// carries no Authorization header, on routes that require a token: the first that returns a
// principal names the caller (a user), which must then meet the route's requirement like a
// personal access token. One that finds no credential of its kind returns nullopt (the core
// then answers 401 "Authorization header is missing"); one that refuses the credential throws
// HttpError (an expired session, a write without its CSRF token).

#include <functional>
#include <optional>
#include <string>

#include "loupe/auth/principal.hpp"
#include "loupe/export.hpp"

namespace loupe {

class Request;

using TokenResolver = std::function<Principal(const std::string& token)>;
using SessionResolver = std::function<std::optional<Principal>(const Request& request)>;

class LOUPE_API TokenResolvers {
public:
    virtual ~TokenResolvers();
    virtual void add(std::string prefix, TokenResolver resolver) = 0;  ///< install() only
    virtual void add_session(SessionResolver resolver) = 0;            ///< install() only
};

}  // namespace loupe
