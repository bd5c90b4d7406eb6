#pragma once
// The public ids of tests and changes, in Argos's form (docs/test-ids.md): a test is
// `<PROJECT NAME IN UPPER CASE>-<sqid of its number>` (e.g. `WEB-FW2D`), a change is the test's id,
// a dash and its mask fingerprint with the `v1:g16:d1:t0.002,0.02,0.08:` prefix written `v1`
// (e.g. `WEB-FW2D-v1ccb73aa8a5d0317b`).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loupe::builds {

std::string test_public_id(std::string_view project_name, int64_t test_id);

std::string change_public_id(std::string_view project_name, int64_t test_id,
                             std::string_view fingerprint);

/// What a test id names: the project part as written (Argos compares it with the project's
/// name in upper case) and the test's number.
struct TestRef {
    std::string project_part;
    int64_t test_id = 0;
};

/// The test an id names, split at its last dash, or nullopt when it is malformed. Only the
/// canonical sqid of a number is accepted, so that each test has exactly one id.
std::optional<TestRef> parse_test_public_id(std::string_view id);

/// What a change id names. `fingerprint` is whole, except for the ids Loupe wrote before it
/// used Argos's form (`<test number>-<16 hex digits>`), still accepted because clients may hold
/// them: then `hash_only` is set and `fingerprint` holds the hash (its last segment).
struct ChangeRef {
    int64_t test_id = 0;
    std::string fingerprint;
    bool hash_only = false;
};

/// The change an id names, or nullopt when it has neither form. Like Argos, the project part of
/// the id is not compared with anything: the caller checks that the test is the project's.
std::optional<ChangeRef> parse_change_public_id(std::string_view id);

}  // namespace loupe::builds
