#include "http/router.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>

#include "http/percent_decoding.hpp"
#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

bool is_capture(const std::string& segment) {
    return !segment.empty() && segment[0] == '{';
}

bool is_param_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    });
}

/// Splits "/a/b/" into {"a", "b"}: one trailing slash is ignored; "/" has no segment.
/// Returns nullopt when the path does not start with '/' or has an empty segment ("/a//b").
std::optional<std::vector<std::string_view>> split_path(std::string_view path) {
    if (path.empty() || path[0] != '/') {
        return std::nullopt;
    }
    path.remove_prefix(1);
    if (!path.empty() && path.back() == '/') {
        path.remove_suffix(1);
    }
    std::vector<std::string_view> segments;
    if (path.empty()) {
        return segments;
    }
    while (true) {
        const std::size_t slash = path.find('/');
        const std::string_view segment = path.substr(0, slash);
        if (segment.empty()) {
            return std::nullopt;
        }
        segments.push_back(segment);
        if (slash == std::string_view::npos) {
            return segments;
        }
        path.remove_prefix(slash + 1);
    }
}

/// No name, key or number contains a control byte: a decoded "%00" or "%0A" names nothing
/// (and would otherwise reach handlers that stop reading at it).
bool is_capture_value(std::string_view value) {
    return !value.empty() && std::none_of(value.begin(), value.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    });
}

std::string describe(const RegisteredRoute& route) {
    return std::string(to_string(route.route.method)) + " " + route.route.pattern;
}

[[noreturn]] void refuse_pattern(const RegisteredRoute& route, const std::string& why) {
    throw std::invalid_argument("route " + describe(route) + " of plugin '" + route.plugin +
                                "' is malformed: " + why);
}

bool is_rest_capture(std::string_view segment) {
    return segment.size() > 5 && segment.starts_with('{') && segment.ends_with("...}");
}

std::vector<std::string> parse_pattern(const RegisteredRoute& route) {
    const auto fail = [&](const std::string& why) { refuse_pattern(route, why); };
    const auto parts = split_path(route.route.pattern);
    if (!parts) {
        refuse_pattern(route, "a pattern starts with '/' and has no empty segment");
    }
    std::vector<std::string> segments;
    std::vector<std::string_view> names;
    for (std::size_t index = 0; index < parts->size(); ++index) {
        const std::string_view part = (*parts)[index];
        if (part.front() == '{') {
            const bool rest = is_rest_capture(part);
            if (rest && index + 1 != parts->size()) {
                fail("the rest capture '" + std::string(part) + "' must be the last segment");
            }
            const bool closed = part.size() >= 2 && part.back() == '}';
            std::string_view name = part;
            if (rest) {
                name = part.substr(1, part.size() - 5);
            } else if (closed) {
                name = part.substr(1, part.size() - 2);
            }
            if (!closed || !is_param_name(name)) {
                fail("'" + std::string(part) +
                     "' is not a {name} or {name...} capture of [A-Za-z0-9_]");
            }
            if (std::find(names.begin(), names.end(), name) != names.end()) {
                fail("capture {" + std::string(name) + "} appears twice");
            }
            names.push_back(name);
        } else if (part.find_first_of("{}") != std::string_view::npos) {
            fail("'" + std::string(part) + "' mixes literal text and a capture");
        }
        segments.emplace_back(part);
    }
    return segments;
}

/// 2 for a literal, 1 for a one-segment capture, 0 for the rest capture.
int rank(const std::vector<std::string>& segments, bool rest, std::size_t index) {
    if (rest && index + 1 == segments.size()) {
        return 0;
    }
    return is_capture(segments[index]) ? 1 : 2;
}

/// Same method, host and literals at the same places: the two could never be told apart.
bool same_shape(const std::vector<std::string>& a, bool a_rest, const std::vector<std::string>& b,
                bool b_rest) {
    if (a.size() != b.size() || a_rest != b_rest) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        const int a_rank = rank(a, a_rest, i);
        if (a_rank != rank(b, b_rest, i) || (a_rank == 2 && a[i] != b[i])) {
            return false;
        }
    }
    return true;
}

/// True when `a` is more specific than `b` (both match the same path): at the first position
/// where they differ in kind, `a` has the literal (or a one-segment capture against a rest
/// capture); otherwise a fixed-length route wins over a rest capture, and of two rest captures
/// the one starting later.
bool more_specific(const std::vector<std::string>& a, bool a_rest,
                   const std::vector<std::string>& b, bool b_rest) {
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        const int a_rank = rank(a, a_rest, i);
        const int b_rank = rank(b, b_rest, i);
        if (a_rank != b_rank) {
            return a_rank > b_rank;
        }
    }
    if (a_rest != b_rest) {
        return !a_rest;
    }
    return a.size() > b.size();
}

}  // namespace

std::set<std::string> own_first_segments(const std::vector<RegisteredRoute>& routes) {
    std::set<std::string> segments{std::string(api_prefix.substr(1))};
    for (const RegisteredRoute& route : routes) {
        if (!route.route.options.host_suffix.empty()) {
            continue;
        }
        const auto parts = split_path(route.route.pattern);
        if (parts && !parts->empty() && !is_capture(std::string(parts->front()))) {
            segments.emplace(parts->front());
        }
    }
    return segments;
}

Router::Router(const std::vector<RegisteredRoute>& routes) {
    entries_.reserve(routes.size());
    for (const RegisteredRoute& route : routes) {
        if (!route.route.prepare) {
            throw std::invalid_argument("route " + describe(route) + " of plugin '" + route.plugin +
                                        "' has no handler");
        }
        Entry entry{parse_pattern(route), false, to_lower(route.route.options.host_suffix), &route};
        entry.rest = !entry.segments.empty() && is_rest_capture(entry.segments.back());
        for (const Entry& existing : entries_) {
            if (existing.route->route.method == route.route.method &&
                existing.host_suffix == entry.host_suffix &&
                same_shape(existing.segments, existing.rest, entry.segments, entry.rest)) {
                throw std::invalid_argument("duplicate route " + describe(route) + ": plugin '" +
                                            route.plugin + "' registers it, plugin '" +
                                            existing.route->plugin + "' already did (as " +
                                            existing.route->route.pattern + ")");
            }
        }
        if (!entry.host_suffix.empty() && std::find(host_suffixes_.begin(), host_suffixes_.end(),
                                                    entry.host_suffix) == host_suffixes_.end()) {
            host_suffixes_.push_back(entry.host_suffix);
        }
        entries_.push_back(std::move(entry));
    }
    // Longest first, so "a.deploy.example.com" is tried before "example.com".
    std::sort(host_suffixes_.begin(), host_suffixes_.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

std::string_view Router::virtual_host_of(std::string_view host_header) const {
    if (host_suffixes_.empty() || host_header.empty() || host_header.front() == '[') {
        return {};
    }
    std::string host = to_lower(host_header.substr(0, host_header.find(':')));
    if (!host.empty() && host.back() == '.') {
        host.pop_back();
    }
    for (const std::string& suffix : host_suffixes_) {
        if (host.size() > suffix.size() + 1 && host.ends_with(suffix) &&
            host[host.size() - suffix.size() - 1] == '.') {
            return suffix;
        }
    }
    return {};
}

RouteMatch Router::match(Method method, std::string_view path, std::string_view virtual_host,
                         bool pages) const {
    RouteMatch result;
    const auto raw_segments = split_path(path);
    if (!raw_segments) {
        return result;
    }
    std::vector<std::string> segments;
    segments.reserve(raw_segments->size());
    for (std::string_view raw : *raw_segments) {
        segments.push_back(percent_decode(raw));
    }

    const Entry* best = nullptr;
    const Entry* best_get = nullptr;  // HEAD's fallback
    std::vector<bool> allowed(static_cast<std::size_t>(Method::options) + 1, false);
    bool path_exists = false;
    for (const Entry& entry : entries_) {
        if (entry.host_suffix != virtual_host || (!pages && entry.route->route.options.page)) {
            continue;
        }
        const std::size_t fixed = entry.segments.size() - (entry.rest ? 1 : 0);
        if (entry.rest ? segments.size() < fixed : segments.size() != fixed) {
            continue;
        }
        bool matches = true;
        for (std::size_t i = 0; i < fixed && matches; ++i) {
            // Captures need a non-empty value; "%2F" decoded inside one stays in it.
            matches = is_capture(entry.segments[i]) ? is_capture_value(segments[i])
                                                    : entry.segments[i] == segments[i];
        }
        if (!matches) {
            continue;
        }
        path_exists = true;
        const Method entry_method = entry.route->route.method;
        allowed[static_cast<std::size_t>(entry_method)] = true;
        if (entry_method == method &&
            (!best || more_specific(entry.segments, entry.rest, best->segments, best->rest))) {
            best = &entry;
        }
        if (entry_method == Method::get &&
            (!best_get ||
             more_specific(entry.segments, entry.rest, best_get->segments, best_get->rest))) {
            best_get = &entry;
        }
    }
    if (!path_exists) {
        return result;
    }
    if (allowed[static_cast<std::size_t>(Method::get)]) {
        allowed[static_cast<std::size_t>(Method::head)] = true;
    }
    for (std::size_t i = 0; i < allowed.size(); ++i) {
        if (allowed[i]) {
            result.allowed.push_back(static_cast<Method>(i));
        }
    }
    if (!best && method == Method::head) {
        best = best_get;
    }
    if (!best) {
        result.outcome = RouteMatch::Outcome::method_not_allowed;
        return result;
    }
    result.outcome = RouteMatch::Outcome::found;
    result.route = best->route;
    const std::size_t fixed = best->segments.size() - (best->rest ? 1 : 0);
    for (std::size_t i = 0; i < fixed; ++i) {
        if (is_capture(best->segments[i])) {
            const std::string& pattern = best->segments[i];
            result.params.emplace(pattern.substr(1, pattern.size() - 2), std::move(segments[i]));
        }
    }
    if (best->rest) {
        std::string rest;
        for (std::size_t i = fixed; i < segments.size(); ++i) {
            rest += (i == fixed ? "" : "/") + segments[i];
        }
        const std::string& pattern = best->segments.back();
        result.params.emplace(pattern.substr(1, pattern.size() - 5), std::move(rest));
    }
    return result;
}

}  // namespace loupe
