// Numbers in queries and paths (page, perPage, buildNumber) are decimal digits only and
// bounded; anything else is a 400 (or a 404 for a path that names nothing), never a page
// silently read as another one.
#include <doctest/doctest.h>

#include <string>

#include "builds_client.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

HttpResult project_get(const TestServer& server, const std::string& path) {
    return http_get(server.base_url() + "/v2/projects/default/default/" + path,
                    server.personal_token());
}

}  // namespace

TEST_CASE("numbers: page and perPage are plain bounded decimals") {
    InProcessServer server;
    push_build(server, {make_blob("edges-1")});

    const HttpResult huge = project_get(server, "builds?page=99999999999999999999");
    CHECK(huge.status == 400);
    CHECK(first_detail(huge) == " is Too big: expected number to be <=1000000000");
    const HttpResult fraction = project_get(server, "builds?page=1.5");
    CHECK(fraction.status == 400);
    CHECK(first_detail(fraction) == " is Invalid input: expected int, received number");
    for (const std::string query :
         {"page=0x10", "page=1%00", "page=%201", "page=%2B1", "perPage=1e1", "perPage=10.0",
          "perPage=101", "page=0", "page=", "perPage=-1", "page=abc"}) {
        CAPTURE(query);
        const HttpResult result = project_get(server, "builds?" + query);
        CHECK(result.status == 400);
        CHECK(result.json()["error"] == "Invalid request");
    }
    const HttpResult ok = project_get(server, "builds?page=0001&perPage=100");
    REQUIRE(ok.status == 200);
    CHECK(ok.json()["pageInfo"] == json{{"total", 1}, {"page", 1}, {"perPage", 100}});
    // The other paginated lists read the same way.
    CHECK(project_get(server, "builds/1/diffs?page=1.5").status == 400);
    CHECK(http_get(server.base_url() + "/v2/accounts/default/projects?page=1e3",
                   server.personal_token())
              .status == 400);
}

TEST_CASE("numbers: build numbers in paths are plain bounded decimals") {
    InProcessServer server;
    for (int i = 0; i < 16; ++i) {
        push_build(server, {make_blob("edges-" + std::to_string(i))});
    }
    CHECK(project_get(server, "builds/16").json()["number"] == 16);
    CHECK(project_get(server, "builds/016").json()["number"] == 16);

    const HttpResult hex = project_get(server, "builds/0x10");
    CHECK(hex.status == 400);
    CHECK(first_detail(hex) == " is Invalid input: expected number, received NaN");
    for (const std::string number :
         {"1e1", "1.0", "%201", "1%20", "%2B1", "-1", "0", "99999999999999999999"}) {
        CAPTURE(number);
        CHECK(project_get(server, "builds/" + number).status == 400);
        CHECK(project_get(server, "builds/" + number + "/diffs").status == 400);
    }
    // A NUL or another control byte in a path segment names nothing.
    for (const std::string path : {"builds/1%00", "builds/1%0A", "builds/1%00/diffs"}) {
        CAPTURE(path);
        CHECK(project_get(server, path).status == 404);
    }
    const HttpResult update = http_json("PUT", server.base_url() + "/v2/builds/1%00",
                                        {{"screenshots", json::array()}}, server.project_token());
    CHECK(update.status == 404);
}
