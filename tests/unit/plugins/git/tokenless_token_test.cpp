// The tokenless token formats: what the Argos CLI builds on GitHub Actions, and the GitLab
// token a CI job builds in one shell line.
#include "tokenless/tokenless_token.hpp"

#include <doctest/doctest.h>

#include "git_fixture.hpp"

using namespace loupe::git;
using loupe::test::github_tokenless;
using loupe::test::gitlab_tokenless;
using nlohmann::json;

TEST_CASE("tokenless-github-: the CLI's token decodes, extra keys ignored") {
    // Exactly what @argos-ci/core writes: base64 of JSON.stringify, prNumber when known.
    const auto token =
        "tokenless-github-eyJvd25lciI6ImFjbWUiLCJyZXBvc2l0b3J5Ijoid2ViIiwiam9iSWQiOiJ2aXN1YWwiLCJy"
        "dW5JZCI6IjEwMDEiLCJwck51bWJlciI6N30=";
    const auto decoded = decode_github_token(token);
    REQUIRE(decoded.has_value());
    CHECK(decoded->owner == "acme");
    CHECK(decoded->repository == "web");
    CHECK(decoded->job_id == "visual");
    CHECK(decoded->run_id == "1001");
    CHECK_FALSE(decoded->project.has_value());

    const auto named = decode_github_token(github_tokenless(
        {{"owner", "a"}, {"repository", "b"}, {"jobId", "j"}, {"runId", "1"}, {"project", "x/y"}}));
    REQUIRE(named.has_value());
    CHECK(named->project == "x/y");
}

TEST_CASE("tokenless-github-: malformed tokens are refused") {
    const json good{{"owner", "a"}, {"repository", "b"}, {"jobId", "j"}, {"runId", "1"}};
    for (const auto* missing : {"owner", "repository", "jobId", "runId"}) {
        auto without = good;
        without.erase(missing);
        CHECK_FALSE(decode_github_token(github_tokenless(without)));
        auto number = good;
        number[missing] = 1;
        CHECK_FALSE(decode_github_token(github_tokenless(number)));
    }
    auto null_project = good;
    null_project["project"] = nullptr;
    CHECK_FALSE(decode_github_token(github_tokenless(null_project)));
    CHECK_FALSE(decode_github_token("tokenless-github-"));
    CHECK_FALSE(decode_github_token("tokenless-github-!!!!"));
    CHECK_FALSE(decode_github_token("tokenless-github-WzEsMl0="));  // [1,2]: not an object
    CHECK_FALSE(decode_github_token("tokenless-github-bm9wZQ=="));  // "nope": not JSON
    CHECK_FALSE(decode_github_token(gitlab_tokenless(good)));       // the other marker
    const auto huge = github_tokenless(
        {{"owner", std::string(7000, 'a')}, {"repository", "b"}, {"jobId", "j"}, {"runId", "1"}});
    CHECK(huge.size() > max_tokenless_token_length);
    CHECK_FALSE(decode_github_token(huge));
}

TEST_CASE("tokenless-gitlab-: project path and job token") {
    // printf '{"gitlabProject":"%s","jobToken":"%s"}' group/sub/app glcbt-1 | base64 -w0
    const auto decoded = decode_gitlab_token(
        "tokenless-gitlab-"
        "eyJnaXRsYWJQcm9qZWN0IjoiZ3JvdXAvc3ViL2FwcCIsImpvYlRva2VuIjoiZ2xjYnQtMSJ9");
    REQUIRE(decoded.has_value());
    CHECK(decoded->gitlab_project == "group/sub/app");
    CHECK(decoded->job_token == "glcbt-1");
    CHECK_FALSE(decoded->project.has_value());
    CHECK_FALSE(
        decode_gitlab_token(gitlab_tokenless({{"gitlabProject", "g/a"}, {"jobToken", ""}})));
    CHECK_FALSE(decode_gitlab_token(gitlab_tokenless({{"gitlabProject", "g/a"}})));
    CHECK_FALSE(decode_gitlab_token(gitlab_tokenless({{"jobToken", "t"}})));
}
