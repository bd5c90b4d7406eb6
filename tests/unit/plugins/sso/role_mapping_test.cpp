// The group-to-role mapping of an OpenID Connect provider: its settings' syntax and the roles a
// person's groups give.
#include "oidc/role_mapping.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using loupe::Role;
using namespace loupe::sso;

TEST_CASE("OIDC role mapping: settings") {
    const auto owner = parse_mapped_role(" acme:owner ");
    CHECK(owner.account_slug == "acme");
    CHECK(owner.role == Role::owner);
    CHECK(parse_mapped_role("acme:contributor").role == Role::contributor);
    CHECK_THROWS_AS(parse_mapped_role("acme"), std::invalid_argument);
    CHECK_THROWS_AS(parse_mapped_role(":owner"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse_mapped_role("acme:admin"), doctest::Contains("admin"),
                         std::invalid_argument);

    CHECK(parse_email_domains(" Acme.example, ,eu.acme.example,") ==
          std::vector<std::string>{"acme.example", "eu.acme.example"});
    CHECK(parse_email_domains("").empty());
}

TEST_CASE("OIDC role mapping: the strongest role per account; unmapped groups give nothing") {
    const RoleMapping mapping{{"loupe-admins", {"acme", Role::owner}},
                              {"designers", {"acme", Role::contributor}},
                              {"web-team", {"acme", Role::member}},
                              {"labs", {"labs", Role::member}}};
    CHECK(managed_accounts(mapping) == std::vector<std::string>{"acme", "labs"});

    auto roles = roles_for({"designers", "web-team", "everyone"}, mapping);
    CHECK(roles == std::map<std::string, Role>{{"acme", Role::member}});
    roles = roles_for({"web-team", "loupe-admins", "labs"}, mapping);
    CHECK(roles == std::map<std::string, Role>{{"acme", Role::owner}, {"labs", Role::member}});
    // A group removed at the provider: the account is absent, so the sign-in removes it.
    CHECK(roles_for({"everyone"}, mapping).empty());
}
