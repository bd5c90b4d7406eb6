// Public test and change ids in Argos's form (plugins/builds/ids): the examples Argos's own ids
// give, the round trip of a change id, the ids Loupe wrote before, and what names no change.
// tests/sqids compares the Sqids encoder itself with the npm package over many numbers.
#include "ids/public_ids.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

#include "ids/sqids.hpp"

using namespace loupe::builds;

namespace {
const std::string fingerprint = "v1:g16:d1:t0.002,0.02,0.08:ccb73aa8a5d0317b";
}

TEST_CASE("test ids: the project name in upper case and Argos's sqid of the test") {
    CHECK(test_public_id("web", 1) == "WEB-FW2D");
    CHECK(test_public_id("web", 2) == "WEB-87KQ");
    CHECK(test_public_id("my-app.v2_x", 42) == "MY-APP.V2_X-LCGF");
    CHECK(test_public_id("default", 0) == "DEFAULT-5HOA");
    CHECK(test_public_id("default", 1000) == "DEFAULT-HD68");
}

TEST_CASE("change ids: the test id, then the fingerprint with its prefix written v1") {
    CHECK(change_public_id("web", 1, fingerprint) == "WEB-FW2D-v1ccb73aa8a5d0317b");
    CHECK(change_public_id("web", 1, "empty") == "WEB-FW2D-empty");

    auto parsed = parse_change_public_id("WEB-FW2D-v1ccb73aa8a5d0317b");
    REQUIRE(parsed);
    CHECK(parsed->test_id == 1);
    CHECK(parsed->fingerprint == fingerprint);
    CHECK_FALSE(parsed->hash_only);
    // The project part is not what finds the test (the route checks the test's project).
    auto dashed = parse_change_public_id("MY-APP-LCGF-v1ccb73aa8a5d0317b");
    REQUIRE(dashed);
    CHECK(dashed->test_id == 42);
    for (int64_t id : {int64_t{0}, int64_t{7}, int64_t{123456789}, int64_t{9007199254740991}}) {
        auto back = parse_change_public_id(change_public_id("p-q", id, fingerprint));
        REQUIRE(back);
        CHECK(back->test_id == id);
        CHECK(back->fingerprint == fingerprint);
    }
}

TEST_CASE("change ids: Loupe's earlier <test number>-<hash> form is still understood") {
    auto legacy = parse_change_public_id("17-ccb73aa8a5d0317b");
    REQUIRE(legacy);
    CHECK(legacy->test_id == 17);
    CHECK(legacy->fingerprint == "ccb73aa8a5d0317b");
    CHECK(legacy->hash_only);
}

TEST_CASE("change ids: what names no change") {
    for (const char* id :
         {"", "-", "abc", "WEB-FW2D", "WEB-FW2D-", "-FW2D-v1ab", "WEB--v1ab", "WEB-fw2d-v1ab",
          "WEB-FW2d-v1ab", "17-CCB73AA8A5D0317B", "17-ccb73aa8a5d0317", "x17-ccb73aa8a5d0317b",
          "1234567890123456789-ccb73aa8a5d0317b"}) {
        CAPTURE(id);
        CHECK_FALSE(parse_change_public_id(id));
    }
}

TEST_CASE("sqids: argument checks") {
    CHECK_THROWS_AS(Sqids("ab", 0), std::invalid_argument);
    CHECK_THROWS_AS(Sqids("abca", 0), std::invalid_argument);
    CHECK_THROWS_AS(Sqids("abc", 256), std::invalid_argument);
    const Sqids sqids("FN5LTPGRW98EB2X3ZYHDCU0AS7KJQV64MO1I", 4);
    CHECK_THROWS_AS(sqids.encode({Sqids::max_value + 1}), std::out_of_range);
    CHECK(sqids.encode({}).empty());
    CHECK(sqids.decode("").empty());
}

TEST_CASE("test ids parse back: split at the last dash, the canonical sqid only") {
    for (int64_t id : {int64_t{0}, int64_t{1}, int64_t{42}, int64_t{9007199254740991}}) {
        auto back = parse_test_public_id(test_public_id("my-app", id));
        REQUIRE(back);
        CHECK(back->project_part == "MY-APP");
        CHECK(back->test_id == id);
    }
    // Malformed: no dash, nothing before or after it, characters outside Argos's alphabet
    // (sqids are case-sensitive), two numbers, or a string that decodes to 1 but is not its id.
    const std::string alphabet = "FN5LTPGRW98EB2X3ZYHDCU0AS7KJQV64MO1I";
    const Sqids argos(alphabet, 4);
    for (const char* bad : {"WEB", "-FW2D", "WEB-", "WEB-fw2d", "WEB-FW2D!"}) {
        CHECK_MESSAGE(!parse_test_public_id(bad), bad);
    }
    CHECK_FALSE(parse_test_public_id("WEB-" + argos.encode({1, 2})));
    int non_canonical = 0;
    for (char c : alphabet) {
        const std::string longer = "FW2D" + std::string(1, c);
        const auto numbers = argos.decode(longer);
        if (numbers.size() == 1 && argos.encode(numbers) != longer) {
            ++non_canonical;
            CHECK_MESSAGE(!parse_test_public_id("WEB-" + longer), longer);
        }
    }
    CHECK(non_canonical > 0);
}
