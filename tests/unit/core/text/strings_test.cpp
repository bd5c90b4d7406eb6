#include "loupe/text/strings.hpp"

#include <doctest/doctest.h>

namespace loupe {
namespace {

using Parts = std::vector<std::string_view>;

TEST_CASE("trim drops the given characters at both ends, and only there") {
    CHECK(trim(" \t a b \r\n") == "a b");
    CHECK(trim("   ").empty());
    CHECK(trim("").empty());
    CHECK(trim("\va\f") == "a");
    CHECK(trim(" \ta\n\t", http_whitespace) == "a\n");
    CHECK(trim_start("  a  ") == "a  ");
    CHECK(trim_end("  a  ") == "  a");
    CHECK(trim("--a--", "-") == "a");
}

TEST_CASE("split keeps empty parts; split_trimmed drops them") {
    CHECK(split("a,,b", ',') == Parts{"a", "", "b"});
    CHECK(split("", ',') == Parts{""});
    CHECK(split("a,", ',') == Parts{"a", ""});
    CHECK(split_trimmed(" a , ,b ", ',') == Parts{"a", "b"});
    CHECK(split_trimmed("", ',').empty());
    CHECK(join({"a", "b", "c"}, ", ") == "a, b, c");
    CHECK(join({}, ",").empty());
}

TEST_CASE("case helpers change ASCII letters only") {
    CHECK(to_lower("Content-TYPE 0-9") == "content-type 0-9");
    CHECK(to_upper("abc-Z") == "ABC-Z");
    CHECK(to_lower("\xC3\x89t\xC3\xA9") == "\xC3\x89t\xC3\xA9");  // "Été": bytes above 127 kept
    CHECK(equals_ignoring_case("Transfer-Encoding", "transfer-encoding"));
    CHECK_FALSE(equals_ignoring_case("chunked", "chunke"));
    CHECK_FALSE(equals_ignoring_case("a", "b"));
    CHECK(starts_with_ignoring_case("Bearer abc", "bearer "));
    CHECK_FALSE(starts_with_ignoring_case("Bear", "bearer"));
}

}  // namespace
}  // namespace loupe
