// The comment listing a pull request's media: a before/after pair in one row, a lone media
// spanning both columns, the title counting rows by kind, and hostile names kept as text.
#include "pull_request/media_table.hpp"

#include <doctest/doctest.h>

using loupe::media::ListedMedia;
using loupe::media::media_comment_markdown;

namespace {

ListedMedia listed(int64_t id, const std::string& name, std::optional<std::string> state,
                   bool video = false) {
    ListedMedia media;
    media.id = id;
    media.name = name;
    media.state = std::move(state);
    media.share_url = "https://media.example/m/share" + std::to_string(id);
    media.file_url = "https://media.example/files/file" + std::to_string(id);
    media.is_video = video;
    return media;
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("media comment: nothing to list is an empty comment") {
    CHECK(media_comment_markdown({}).empty());
}

TEST_CASE("media comment: a pair is one row, a lone media spans both columns") {
    const auto body = media_comment_markdown({listed(1, "checkout.png", "before"),
                                              listed(2, "checkout.png", "after"),
                                              listed(3, "menu.png", std::nullopt)});
    CHECK(body.starts_with("**2 screenshots uploaded to Loupe**\n\n<table>"));
    CHECK(has(body, "<tr><th>Name</th><th>Before</th><th>After</th></tr>"));
    CHECK(has(body,
              "<td><strong>checkout.png</strong></td>\n<td><a "
              "href=\"https://media.example/m/share1\"><img "
              "src=\"https://media.example/files/file1\" alt=\"checkout.png\"></a></td>\n<td><a "
              "href=\"https://media.example/m/share2\">"));
    CHECK(has(body, "<td colspan=\"2\"><a href=\"https://media.example/m/share3\">"));
    CHECK(!has(body, "adds a version"));
}

TEST_CASE("media comment: without pairs one Preview column; videos are play links") {
    auto clip = listed(4, "flow.webm", std::nullopt, true);
    clip.version = 2;
    const auto body = media_comment_markdown({clip});
    CHECK(body.starts_with("**1 video uploaded to Loupe**"));
    CHECK(has(body, "<tr><th>Name</th><th>Preview</th></tr>"));
    CHECK(has(body, "<td><a href=\"https://media.example/m/share4\">\u25B6 flow.webm</a></td>"));
    CHECK(has(body, "the table shows the newest"));
    CHECK(media_comment_markdown({clip, listed(5, "a.png", std::nullopt)})
              .starts_with("**2 media uploaded to Loupe**"));
}

TEST_CASE("media comment: names and descriptions stay text, line breaks stay in the cell") {
    auto hostile = listed(6, "<img src=x onerror=alert(1)>\"", std::nullopt);
    hostile.description = "first line\r\n\r\nsecond & <b>third</b>";
    const auto body = media_comment_markdown({hostile});
    CHECK(!has(body, "<img src=x"));
    CHECK(has(body, "<strong>&lt;img src=x onerror=alert(1)&gt;&quot;</strong>"));
    CHECK(has(body, "alt=\"&lt;img src=x onerror=alert(1)&gt;&quot;\""));
    CHECK(has(body, "first line<br><br>second &amp; &lt;b&gt;third&lt;/b&gt;"));
    // A blank line would end GitHub's HTML block: none inside the table.
    const auto table =
        body.substr(body.find("<table>"), body.find("</table>") - body.find("<table>"));
    CHECK(!has(table, "\n\n"));
}
