// libFuzzer entry point: an arbitrary request body through the JSON body reader every JSON
// route uses (parse_json_body), then through the field readers and the builds plugin's shared
// validators the way POST /builds and PUT /builds/{id} read theirs. Besides crashes, sanitizer
// reports (float-to-integer overflow included) and any exception other than HttpError, it
// checks:
// - a refused body is a 400 with a message and no details;
// - an accepted body is an object, an array or empty (null), and serializes back;
// - validation issues are worded "<path> is <message>" and become a 400 whose details are
//   exactly those issues, in an error body that serializes.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "http/json_body.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/http/json_reader.hpp"
#include "validation.hpp"

namespace {

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "JSON body fuzz check failed: %s\n", what);
    std::abort();
}

// As PUT /builds/{id} reads each screenshot.
void read_screenshot(const loupe::Json& item, const std::string& path,
                     loupe::Validation& validation) {
    if (!item.is_object()) {
        validation.add(path, loupe::expected_message("object", &item));
        return;
    }
    loupe::JsonReader reader(item, validation, path);
    reader.pattern("key", true, loupe::sha256_pattern);
    reader.string("name", true);
    reader.string("parentName", false);
    if (const loupe::Json* metadata = reader.get("metadata")) {
        (void)loupe::builds::read_screenshot_metadata(*metadata, reader.path_of("metadata"),
                                                      validation);
    }
    reader.pattern("pwTraceKey", false, loupe::sha256_pattern);
    reader.number("threshold", false, 0, 1);
    if (auto type = reader.string("contentType", false)) {
        (void)loupe::builds::normalize_content_type(*type);
    }
}

// The fields of POST /builds and PUT /builds/{id} together: a fuzzed body may hold any of them.
void read_build_fields(const loupe::Json& body, loupe::Validation& validation) {
    loupe::JsonReader reader(body, validation);
    (void)loupe::builds::read_key_list(reader, "screenshotKeys", "screenshots");
    (void)loupe::builds::read_key_list(reader, "pwTraceKeys", "Playwright traces");
    reader.pattern("commit", true, loupe::sha1_pattern);
    reader.string("branch", true, 1);
    reader.string("name", false);
    reader.boolean("parallel");
    reader.integer("prNumber", false, 1);
    reader.pattern("referenceCommit", false, loupe::sha1_pattern);
    (void)loupe::builds::read_commit_list(reader, "parentCommits", false);
    reader.one_of("mode", false, {"ci", "monitoring"});
    reader.integer("runAttempt", false, 1);
    reader.array("mergeQueuePrNumbers", false, 1);
    if (const loupe::Json* shots = reader.array("screenshots", false)) {
        for (std::size_t i = 0; i < shots->size() && i < 64; ++i) {
            read_screenshot((*shots)[i], "screenshots." + std::to_string(i), validation);
        }
    }
    reader.integer("parallelTotal", false, -1);
    reader.integer("parallelIndex", false, 1);
    (void)loupe::builds::read_build_metadata(reader);
}

void check_validation(const loupe::Validation& validation) {
    for (const std::string& issue : validation.issues()) {
        if (issue.find(" is ") == std::string::npos) {
            fail("a validation issue without \" is \"");
        }
    }
    try {
        validation.throw_if_any();
    } catch (const loupe::HttpError& error) {
        if (error.status() != 400 || error.details() != validation.issues()) {
            fail("validation issues did not become a 400 with them as details");
        }
        loupe::Json body = {{"error", error.what()}, {"details", loupe::Json::array()}};
        for (const std::string& detail : error.details()) {
            body["details"].push_back({{"message", detail}});
        }
        (void)body.dump();  // throws on text that cannot be encoded, failing the run
        return;
    }
    if (!validation.empty()) {
        fail("validation issues did not throw");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    loupe::Json body;
    try {
        body = loupe::parse_json_body(text);
    } catch (const loupe::HttpError& error) {
        if (error.status() != 400 || std::string_view(error.what()).empty() ||
            !error.details().empty()) {
            fail("a refused body is not a plain 400");
        }
        return 0;
    }
    if (!body.is_object() && !body.is_array() && !body.is_null()) {
        fail("accepted a body that is not an object, an array or empty");
    }
    if (text.empty() != body.is_null()) {
        fail("an empty body must read as null, and only an empty body");
    }
    (void)body.dump();
    if (body.is_object()) {
        loupe::Validation validation;
        read_build_fields(body, validation);
        check_validation(validation);
    }
    return 0;
}
