#include "pull_request/media_table.hpp"

#include <algorithm>
#include <map>

#include "loupe/text/html.hpp"

namespace loupe::media {
namespace {

struct Pair {
    const ListedMedia* before = nullptr;
    const ListedMedia* after = nullptr;
};

/// HTML text of a cell: escaped, every line ending (CRLF, CR, LF) a <br>.
std::string cell_text(const std::string& text) {
    std::string out;
    const auto escaped = html_escape(text);
    for (std::size_t i = 0; i < escaped.size(); ++i) {
        const char c = escaped[i];
        if (c == '\r' || c == '\n') {
            out += "<br>";
            if (c == '\r' && i + 1 < escaped.size() && escaped[i + 1] == '\n') {
                ++i;
            }
        } else {
            out += c;
        }
    }
    return out;
}

/// An attribute value: escaped, line endings as spaces.
std::string attribute(const std::string& text) {
    auto out = html_escape(text);
    std::replace_if(
        out.begin(), out.end(), [](char c) { return c == '\r' || c == '\n'; }, ' ');
    return out;
}

std::string cell(const ListedMedia& media) {
    const auto href = attribute(media.share_url);
    if (media.is_video) {
        return "<a href=\"" + href + "\">\u25B6 " + cell_text(media.name) + "</a>";
    }
    return "<a href=\"" + href + "\"><img src=\"" + attribute(media.file_url) + "\" alt=\"" +
           attribute(media.name) + "\"></a>";
}

/// Pairs share a name and carry a state; a media without a state is a row of its own.
std::vector<Pair> pairs_of(const std::vector<ListedMedia>& media) {
    std::vector<Pair> pairs;
    std::map<std::string, std::size_t> index_of_name;
    for (const auto& item : media) {
        std::size_t index = pairs.size();
        if (item.state) {
            const auto [found, inserted] = index_of_name.try_emplace(item.name, pairs.size());
            index = found->second;
            if (inserted) {
                pairs.emplace_back();
            }
        } else {
            pairs.emplace_back();
        }
        (item.state == "before" ? pairs[index].before : pairs[index].after) = &item;
    }
    return pairs;
}

std::string title(const std::vector<Pair>& pairs) {
    bool videos = false;
    bool images = false;
    for (const auto& pair : pairs) {
        for (const auto* item : {pair.before, pair.after}) {
            if (item != nullptr) {
                (item->is_video ? videos : images) = true;
            }
        }
    }
    const std::string noun = videos && images ? "media" : (videos ? "video" : "screenshot");
    const auto count = pairs.size();
    const bool plural = noun != "media" && count != 1;
    return "**" + std::to_string(count) + " " + noun + (plural ? "s" : "") + " uploaded to Loupe**";
}

}  // namespace

std::string media_comment_markdown(const std::vector<ListedMedia>& media) {
    if (media.empty()) {
        return "";
    }
    const auto pairs = pairs_of(media);
    const bool has_pairs = std::any_of(pairs.begin(), pairs.end(), [](const Pair& pair) {
        return pair.before != nullptr && pair.after != nullptr;
    });
    std::string table = "<table>\n<thead>\n";
    table += has_pairs ? "<tr><th>Name</th><th>Before</th><th>After</th></tr>\n"
                       : "<tr><th>Name</th><th>Preview</th></tr>\n";
    table += "</thead>\n<tbody>\n";
    bool newer_versions = false;
    for (const auto& pair : pairs) {
        const ListedMedia& shown = pair.after != nullptr ? *pair.after : *pair.before;
        std::string label = "<strong>" + cell_text(shown.name) + "</strong>";
        const auto& description = pair.after != nullptr && pair.after->description
                                      ? pair.after->description
                                  : pair.before != nullptr ? pair.before->description
                                                           : shown.description;
        if (description && !description->empty()) {
            label += "<br>" + cell_text(*description);
        }
        table += "<tr>\n<td>" + label + "</td>\n";
        if (pair.before != nullptr && pair.after != nullptr) {
            table += "<td>" + cell(*pair.before) + "</td>\n<td>" + cell(*pair.after) + "</td>\n";
        } else {
            table += (has_pairs ? "<td colspan=\"2\">" : "<td>") + cell(shown) + "</td>\n";
        }
        table += "</tr>\n";
        for (const auto* item : {pair.before, pair.after}) {
            newer_versions = newer_versions || (item != nullptr && item->version > 1);
        }
    }
    table += "</tbody>\n</table>";
    return title(pairs) + "\n\n" + table +
           "\n\n<sub>This comment is updated in place as media are uploaded." +
           (newer_versions ? " A new upload of a name adds a version; the table shows the newest."
                           : "") +
           "</sub>";
}

}  // namespace loupe::media
