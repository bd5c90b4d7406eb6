#pragma once
// Helpers for processing tests: real PNG screenshots, builds pushed with chosen names and
// fields, and waiting for a build to conclude.

#include <memory>
#include <string>
#include <vector>

#include "builds_client.hpp"
#include "support/server_database.hpp"

namespace loupe::test {

struct Paint {
    int x = 0, y = 0, width = 0, height = 0;
};

/// A deterministic 64×48 (or given size) pattern PNG for `seed`, optionally with a magenta
/// block painted over, or one pixel nudged by one unit (`nudge`: same picture to the eye and to
/// the diff thresholds, different bytes).
Blob png_blob(const std::string& seed, std::optional<Paint> paint = std::nullopt,
              bool nudge = false, int width = 64, int height = 48);
/// A smooth gradient (compresses to a few KB at any size), for tests that need large images.
Blob gradient_png(const std::string& seed, int width, int height,
                  std::optional<Paint> paint = std::nullopt);

struct Shot {
    std::string name;
    Blob blob;
    nlohmann::json fields = nlohmann::json::object();  ///< baseName, parentName, metadata...
    std::string content_type = "image/png";
};

/// Creates a build (`body` holds commit, branch, ...), uploads the blobs it asks for, sends
/// the screenshots and finalizes; returns the build JSON of the PUT.
nlohmann::json push_shots(const TestServer& server, const std::vector<Shot>& shots,
                          const nlohmann::json& body);

/// GET /v2/projects/default/default/builds/{number} with the personal token.
nlohmann::json get_build(const TestServer& server, int64_t number);
/// Polls the build until its status is neither pending nor progress (60 s at most).
nlohmann::json wait_concluded(const TestServer& server, int64_t number);
/// GET .../builds/{number}/diffs{query}; REQUIREs 200.
nlohmann::json list_diffs(const TestServer& server, int64_t number, const std::string& query = "");

/// Waits until no job of `kind` (an event subscriber's deliveries, for one) is queued or
/// running (60 s at most): what the subscriber does to events already published is done.
void wait_jobs_settled(const TestServer& server, const std::string& kind);

/// A 40-hex commit made of `c`.
std::string sha(char c);

/// A build's body: `commit` and `branch`, with the fields of `extra` merged in.
nlohmann::json body(const std::string& commit, const std::string& branch,
                    nlohmann::json extra = nlohmann::json::object());
/// The number of a build JSON.
int64_t number_of(const nlohmann::json& build);
/// Server options with the plugins a review needs (auth, builds, reviews).
ServerOptions with_reviews();
/// The magenta block the change tests paint over a screenshot.
inline constexpr Paint block{10, 8, 14, 10};

}  // namespace loupe::test
