#pragma once
// Extra bearer-token kinds contributed by plugins (e.g. "tokenless-github-" from auth).
// The core tries them, longest prefix first, after its own `argos_oat_`/`arp_` rules and
// before the project-token lookup (reference §2.2). A resolver returns a project principal
// or throws HttpError (401/403/...).

#include <functional>
#include <string>

#include "loupe/auth/principal.hpp"
#include "loupe/export.hpp"

namespace loupe {

using TokenResolver = std::function<Principal(const std::string& token)>;

class LOUPE_API TokenResolvers {
public:
    virtual ~TokenResolvers();
    virtual void add(std::string prefix, TokenResolver resolver) = 0;  ///< install() only
};

}  // namespace loupe
