#pragma once
// The comment listing a pull request's media (posted by the git plugin, edited in place):
//   **2 screenshots uploaded to Loupe**
//   an HTML table (GitHub does not read Markdown inside an HTML block), one row per name: a
//   before/after pair side by side under Before and After, a lone media spanning both columns
//   (or under Preview when there is no pair); the description under the name; each cell the
//   picture (a video, which has no poster frame, a play link) linked to the media's share page;
//   a note that the comment is updated in place (and shows the newest version).
// Names and descriptions are the uploader's: escaped, line breaks as <br> (a blank line would end
// the HTML block and spill the rest of the table as Markdown).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loupe::media {

struct ListedMedia {
    int64_t id = 0;
    std::string name;
    std::optional<std::string> state;  ///< before | after
    std::optional<std::string> description;
    std::string share_url;
    std::string file_url;
    bool is_video = false;
    int64_t version = 1;
};

/// Empty when there is nothing to list. `media` in upload order.
std::string media_comment_markdown(const std::vector<ListedMedia>& media);

}  // namespace loupe::media
