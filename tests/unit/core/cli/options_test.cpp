// The command-line grammar every admin command shares.
#include "loupe/cli/options.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <sstream>

#include "loupe/cli/lookups.hpp"

namespace loupe::cli {
namespace {

using Words = std::vector<std::string>;

const OptionSpec spec{.command = "hello purge",
                      .required = {"project"},
                      .optional = {"older-than"},
                      .repeatable = {"tag"},
                      .flags = {"dry-run", "json"},
                      .max_positionals = 1};

std::string usage_error(const Words& words) {
    try {
        Options options(spec, words);
    } catch (const UsageError& error) {
        return error.what();
    }
    return "accepted";
}

TEST_CASE("options, flags, repeated options and positionals") {
    const Options options(spec, {"--project", "acme/web", "--older-than=30d", "--tag", "a",
                                 "--tag=b", "--dry-run", "folder"});
    CHECK(options.value("project") == "acme/web");
    CHECK(options.optional_value("older-than") == "30d");
    CHECK(options.values("tag") == Words{"a", "b"});
    CHECK(options.has("dry-run"));
    CHECK_FALSE(options.has("json"));
    CHECK_FALSE(options.optional_value("missing").has_value());
    CHECK(options.positionals() == Words{"folder"});
    CHECK(duration_option(options, "older-than") == std::chrono::hours(24 * 30));
}

TEST_CASE("usage errors name the word at fault") {
    CHECK(usage_error({}) == "`hello purge` needs --project");
    CHECK(usage_error({"--project"}) == "option --project needs a value");
    CHECK(usage_error({"--project", "a/b", "--color", "red"}) ==
          "unknown option --color for `hello purge`");
    CHECK(usage_error({"--project", "a/b", "--project", "c/d"}) ==
          "option --project is given more than once");
    CHECK(usage_error({"--project", "a/b", "--json=yes"}) == "option --json takes no value");
    CHECK(usage_error({"--project", "a/b", "one", "two"}) ==
          "unexpected argument \"two\" for `hello purge`");
    const Options bad_age(spec, {"--project", "a/b", "--older-than", "30y"});
    CHECK_THROWS_WITH_AS(duration_option(bad_age, "older-than"),
                         doctest::Contains("invalid duration \"30y\""), UsageError);
}

TEST_CASE("whole numbers in a range") {
    CHECK(integer_argument("42", "--days", 0, 36500) == 42);
    CHECK(integer_argument("0", "--days", 0, 36500) == 0);
    CHECK_THROWS_WITH_AS(integer_argument("36501", "--days", 0, 36500),
                         "--days must be a whole number from 0 to 36500, got \"36501\"",
                         UsageError);
    CHECK_THROWS_WITH_AS(integer_argument("x1", "--limit", 1, std::numeric_limits<int64_t>::max()),
                         "--limit must be a positive integer, got \"x1\"", UsageError);
    CHECK_THROWS_AS(integer_argument("", "--limit", 1, std::numeric_limits<int64_t>::max()),
                    UsageError);
    CHECK_THROWS_AS(integer_argument("1.5", "--limit", 1, std::numeric_limits<int64_t>::max()),
                    UsageError);
}

TEST_CASE("project references are ACCOUNT/NAME") {
    CHECK(split_project_reference("acme/web") ==
          std::pair<std::string, std::string>{"acme", "web"});
    for (const char* bad : {"acme", "/web", "acme/", "a/b/c", ""}) {
        CAPTURE(bad);
        CHECK_FALSE(split_project_reference(bad).has_value());
    }
}

TEST_CASE("command words: the command's own name and --json taken out") {
    const auto line = command_words({"jobs", "list", "--json", "--limit", "5"}, "jobs");
    CHECK(line.words == Words{"list", "--limit", "5"});
    CHECK(line.json);
    CHECK_FALSE(command_words({"list"}, "jobs").json);
    CHECK(command_words({"list", "jobs"}, "jobs").words == Words{"list", "jobs"});
}

TEST_CASE("run_command: help exits 0, usage errors 2, refusals 1") {
    std::ostringstream out;
    std::ostringstream err;
    const auto run = [&](const Words& words, const std::function<int()>& body) {
        out.str("");
        err.str("");
        return run_command("loupe admin hello", "usage: loupe admin hello ...\n", words, out, err,
                           body);
    };
    CHECK(run({"--help"}, [] { return 9; }) == 0);
    CHECK(out.str() == "usage: loupe admin hello ...\n");
    CHECK(run({"help"}, [] { return 9; }) == 0);
    CHECK(run({"--project", "help"}, [] { return 9; }) == 9);  // "help" as a value is a value
    CHECK(run({}, []() -> int { throw UsageError("missing --project"); }) == 2);
    CHECK(err.str() == "loupe admin hello: missing --project\n\nusage: loupe admin hello ...\n");
    CHECK(run({}, []() -> int { throw CommandError("no project acme/web"); }) == 1);
    CHECK(err.str() == "loupe admin hello: no project acme/web\n");
    CHECK(run({}, [] { return 3; }) == 3);
}

}  // namespace
}  // namespace loupe::cli
