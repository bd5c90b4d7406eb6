#include <doctest/doctest.h>

#include <string>

#include "http/json_body.hpp"
#include "http/query_string.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

std::string json_error(std::string_view body) {
    try {
        parse_json_body(body);
    } catch (const HttpError& error) {
        CHECK(error.status() == 400);
        CHECK(error.details().empty());
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("query strings decode percent and plus, and keep repeated keys") {
    const QueryParameters query =
        parse_query_string("projectNames=a&projectNames=b%2Fc&q=two+words&&flag&e=&x%3Dy=1=2");
    CHECK(query.count("projectNames") == 2);
    const auto [first, last] = query.equal_range("projectNames");
    CHECK(first->second == "a");
    CHECK(std::next(first)->second == "b/c");
    CHECK(std::next(first, 2) == last);
    CHECK(query.find("q")->second == "two words");
    CHECK(query.find("flag")->second.empty());
    CHECK(query.find("e")->second.empty());
    CHECK(query.find("x=y")->second == "1=2");
    CHECK(query.size() == 6);
    CHECK(parse_query_string("").empty());
    CHECK(parse_query_string("&&").empty());
}

TEST_CASE("JSON bodies: empty is null, objects and arrays parse") {
    CHECK(parse_json_body("").is_null());
    CHECK(parse_json_body(" {\"a\": [1, 2]} ") == Json{{"a", {1, 2}}});
    CHECK(parse_json_body("[]") == Json::array());
}

TEST_CASE("JSON bodies: malformed input is a 400 worded like JSON.parse") {
    CHECK(json_error("{\"a\":}") == "Unexpected token } in JSON at position 5");
    CHECK(json_error("{\"a\": tru}") == "Unexpected token } in JSON at position 9");
    CHECK(json_error("{\"a\": 1") == "Unexpected end of JSON input");
    CHECK(json_error("   ") == "Unexpected end of JSON input");
    // Express's parser is strict: only an object or an array at the top.
    CHECK(json_error("\"text\"") == "Unexpected token \" in JSON at position 0");
    CHECK(json_error("  42") == "Unexpected token 4 in JSON at position 2");
    CHECK(json_error("{\"a\": 1}}") == "Unexpected token } in JSON at position 8");
    // A byte that cannot be printed is left out of the message.
    CHECK(json_error(std::string("{\"a\":\x01}", 7)) == "Unexpected token in JSON at position 5");
}

TEST_CASE("JSON bodies: nesting is bounded, brackets inside strings do not count") {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    CHECK(json_error(deep).find("nested deeper than 512") != std::string::npos);
    const std::string shallow = "[\"" + std::string(2000, '[') + "\"]";
    CHECK(parse_json_body(shallow).size() == 1);
}

TEST_CASE("JSON bodies: the values are counted before parsing, commas in strings do not count") {
    const auto status_of = [](std::string_view body, std::size_t max_values) {
        try {
            parse_json_body(body, max_values);
            return 200;
        } catch (const HttpError& error) {
            return error.status();
        }
    };
    // [0,0,0]: the root and three elements.
    CHECK(status_of("[0,0,0]", 4) == 200);
    CHECK(status_of("[0,0,0]", 3) == 413);
    CHECK(status_of("[[], {}, \"a,b,c,d,e\"]", 4) == 200);
    // The root, members a and b, and two elements.
    CHECK(status_of("{\"a\": {\"b\": [1, 2]}}", 5) == 200);
    CHECK(status_of("{\"a\": {\"b\": [1, 2]}}", 4) == 413);
    // 32 MiB of zeros would be 16 million values: refused at the default.
    std::string huge = "[0";
    huge.reserve(1 << 22);
    while (huge.size() < (1 << 21)) {
        huge += ",0";
    }
    huge += "]";
    CHECK(status_of(huge, default_max_json_values) == 413);
}

}  // namespace loupe
