#pragma once

namespace loupe {

/// What a route demands of the bearer token. The core enforces it (after the route's
/// `prepare` step has validated the input, so a 400 wins over a 401 as in Argos).
enum class AuthRequirement {
    none,                        ///< no token needed (health, signed upload URLs)
    project_token,               ///< a project token (argos_..., short-lived, tokenless)
    personal_token,              ///< a personal access token (arp_...)
    personal_token_for_account,  ///< a PAT whose scope holds the route's {accountSlug}
    project_or_personal_token,   ///< either; the handler checks access to {owner}/{project}
};

}  // namespace loupe
