#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <regex>

#include "loupe/http/http_error.hpp"
#include "loupe/http/json_reader.hpp"
#include "loupe/json.hpp"

namespace loupe {

TEST_CASE("HttpError::invalid is a 400 'Invalid request' carrying every detail") {
    const HttpError error = HttpError::invalid({"commit is Invalid", " is Too big"});
    CHECK(error.status() == 400);
    CHECK(std::string(error.what()) == "Invalid request");
    CHECK(error.details() == std::vector<std::string>{"commit is Invalid", " is Too big"});
    CHECK(HttpError::not_found().status() == 404);
    CHECK(std::string(HttpError::unauthorized().what()) == "Unauthorized");
}

TEST_CASE("Validation words issues as '<path> is <message>' and throws them all at once") {
    Validation validation;
    CHECK(validation.empty());
    CHECK_NOTHROW(validation.throw_if_any());

    validation.add("commit", expected_message("string", nullptr));
    validation.add("", "Invalid input: expected number, received NaN");
    CHECK_FALSE(validation.empty());
    REQUIRE(validation.issues().size() == 2);
    CHECK(validation.issues()[0] == "commit is Invalid input: expected string, received undefined");
    // An empty path keeps the leading space, as Argos prints it.
    CHECK(validation.issues()[1] == " is Invalid input: expected number, received NaN");

    try {
        validation.throw_if_any();
        FAIL("throw_if_any did not throw");
    } catch (const HttpError& error) {
        CHECK(error.status() == 400);
        CHECK(std::string(error.what()) == "Invalid request");
        CHECK(error.details() == validation.issues());
    }
}

TEST_CASE("json_type_name uses zod's names") {
    CHECK(json_type_name(nullptr) == "undefined");
    const Json null_value = nullptr;
    CHECK(json_type_name(&null_value) == "null");
    const Json text = "x";
    CHECK(json_type_name(&text) == "string");
    const Json integer = -3;
    CHECK(json_type_name(&integer) == "number");
    const Json unsigned_integer = 3u;
    CHECK(json_type_name(&unsigned_integer) == "number");
    const Json real = 1.5;
    CHECK(json_type_name(&real) == "number");
    const Json nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(json_type_name(&nan) == "NaN");
    const Json flag = true;
    CHECK(json_type_name(&flag) == "boolean");
    const Json object = Json::object();
    CHECK(json_type_name(&object) == "object");
    const Json array = Json::array();
    CHECK(json_type_name(&array) == "array");

    CHECK(expected_message("object", &array) == "Invalid input: expected object, received array");
}

TEST_CASE("iso_time prints UTC with milliseconds") {
    CHECK(iso_time(0) == "1970-01-01T00:00:00.000Z");
    CHECK(iso_time(1'787'426'486'123) == "2026-08-22T19:21:26.123Z");
    CHECK(iso_time(951'782'400'000) == "2000-02-29T00:00:00.000Z");  // leap day
    CHECK(iso_time(-1) == "1969-12-31T23:59:59.999Z");
    const int64_t now = now_ms();
    CHECK(now > 1'700'000'000'000);
    CHECK(parse_iso_time(iso_time(now)) == now);
}

TEST_CASE("parse_iso_time accepts zod's ISO datetimes with Z or an offset") {
    CHECK(parse_iso_time("2026-08-22T19:21:26.123Z") == 1'787'426'486'123);
    CHECK(parse_iso_time("2026-08-22T19:21:26Z") == 1'787'426'486'000);
    CHECK(parse_iso_time("2026-08-22T19:21Z") == 1'787'426'460'000);  // seconds optional
    CHECK(parse_iso_time("2026-08-22T21:21:26.123+02:00") == 1'787'426'486'123);
    CHECK(parse_iso_time("2026-08-22T14:51:26.123-04:30") == 1'787'426'486'123);
    CHECK(parse_iso_time("2026-08-22T19:21:26.1Z") == 1'787'426'486'100);
    CHECK(parse_iso_time("2026-08-22T19:21:26.123456789Z") == 1'787'426'486'123);  // truncated
    CHECK(parse_iso_time("2024-02-29T00:00:00Z").has_value());
    CHECK(parse_iso_time("1969-12-31T23:59:59.999Z") == -1);
}

TEST_CASE("parse_iso_time rejects what zod rejects") {
    for (const char* text : {
             "",
             "garbage",
             "2026-08-22",                 // no time
             "2026-08-22T19:21:26",        // no zone
             "2026-08-22 19:21:26Z",       // space instead of T
             "2026-08-22t19:21:26z",       // lower case
             "2026-13-01T00:00:00Z",       // month
             "2026-02-29T00:00:00Z",       // not a leap year
             "2026-04-31T00:00:00Z",       // April has 30 days
             "2026-08-22T24:00:00Z",       // hour
             "2026-08-22T19:60:00Z",       // minute
             "2026-08-22T19:21:60Z",       // no leap second
             "2026-08-22T19:21:26.Z",      // empty fraction
             "2026-08-22T19:21.5Z",        // fraction without seconds
             "2026-08-22T19:21:26+0200",   // offset needs a colon
             "2026-08-22T19:21:26+24:00",  // offset hour
             "2026-08-22T19:21:26Z ",      // trailing text
             "26-08-22T19:21:26Z",         // two-digit year
             "+2026-08-22T19:21:26Z",      // sign
         }) {
        CAPTURE(text);
        CHECK_FALSE(parse_iso_time(text).has_value());
    }
}

TEST_CASE("matches: the hash patterns' fast path agrees with the regular expressions") {
    const std::string hex64(64, 'a');
    const std::string hex40(40, '0');
    const std::vector<std::string> samples = {hex64,
                                              "A" + hex64.substr(1),
                                              "g" + hex64.substr(1),
                                              hex64 + "0",
                                              hex64.substr(1),
                                              "",
                                              hex40,
                                              "F" + hex40.substr(1),
                                              "f" + hex40.substr(1),
                                              " " + hex40.substr(1),
                                              hex40 + "\n",
                                              std::string(64, 'F'),
                                              std::string(63, 'a') + "\0"};
    for (const auto* pattern : {sha256_pattern, sha1_pattern}) {
        const std::regex regex(pattern);
        for (const auto& text : samples) {
            INFO(pattern << " on '" << text << "'");
            CHECK(matches(text, pattern) == std::regex_match(text, regex));
        }
    }
    CHECK(matches(hex64, sha256_pattern));
    CHECK_FALSE(matches("F" + hex40.substr(1), sha1_pattern));
}

TEST_CASE("JsonReader::integer refuses integers JavaScript cannot hold exactly") {
    const Json body = Json::parse(
        R"({"huge":1e300,"big":9007199254740992,"unsigned":18446744073709551615,
            "negative":-9223372036854775808,"edge":9007199254740991,"float_edge":-9007199254740991.0})");
    Validation validation;
    JsonReader reader(body, validation);
    CHECK_FALSE(reader.integer("huge", true, 0));
    CHECK_FALSE(reader.integer("big", true, 0));
    CHECK_FALSE(reader.integer("unsigned", true, 0));
    CHECK_FALSE(reader.integer("negative", true, INT64_MIN));
    CHECK(reader.integer("edge", true, 0) == 9007199254740991);
    CHECK(reader.integer("float_edge", true, INT64_MIN) == -9007199254740991);
    REQUIRE(validation.issues().size() == 4);
    CHECK(validation.issues()[0] == "huge is Too big: expected int to be <=9007199254740991");
}

}  // namespace loupe
