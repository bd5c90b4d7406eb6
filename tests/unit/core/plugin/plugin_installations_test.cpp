// A process may install a plugin more than once, each time into a new Host (the tests' in-process
// host starts a Runtime per test). What an installation makes is kept by its own Host
// (Host::keep/make), so two installations side by side each answer from their own database, and
// one keeps working after the other is gone.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>

#include "support/http_client.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;

namespace {

std::string default_level(const InProcessServer& server) {
    const auto answer =
        http_get(server.base_url() + "/v2/accounts/default", server.personal_token());
    REQUIRE_MESSAGE(answer.status == 200, answer.body);
    return answer.json()["defaultUserLevel"].get<std::string>();
}

}  // namespace

TEST_CASE("two installations of every plugin in one process each keep their own objects") {
    const ServerOptions every_plugin{
        {"auth", "builds", "reviews", "web", "oauth", "sso", "git", "analytics", "deployments",
         "media", "notifications", "automation"},
        {},
        {}};
    auto first = std::make_unique<InProcessServer>(every_plugin);
    InProcessServer second(every_plugin);
    const std::string level = default_level(second);
    const std::string other = level == "contributor" ? "member" : "contributor";

    // The team routes of each answer from its own database.
    const auto changed = http_json("PATCH", first->base_url() + "/v2/accounts/default",
                                   {{"defaultUserLevel", other}}, first->personal_token());
    REQUIRE_MESSAGE(changed.status == 200, changed.body);
    CHECK(default_level(*first) == other);
    CHECK(default_level(second) == level);

    // The first goes away; the second's routes, jobs and services do not use anything of it.
    first.reset();
    CHECK(default_level(second) == level);
    const auto again = http_json("PATCH", second.base_url() + "/v2/accounts/default",
                                 {{"defaultUserLevel", other}}, second.personal_token());
    REQUIRE_MESSAGE(again.status == 200, again.body);
    CHECK(default_level(second) == other);
}
