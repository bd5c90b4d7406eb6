#include "http/router.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "http/percent_decoding.hpp"

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

std::vector<std::string> parse_pattern(const RegisteredRoute& route) {
    const auto fail = [&](const std::string& why) { refuse_pattern(route, why); };
    const auto parts = split_path(route.route.pattern);
    if (!parts) {
        refuse_pattern(route, "a pattern starts with '/' and has no empty segment");
    }
    std::vector<std::string> segments;
    std::vector<std::string_view> names;
    for (std::string_view part : *parts) {
        if (part.front() == '{') {
            const bool closed = part.size() >= 2 && part.back() == '}';
            const std::string_view name = closed ? part.substr(1, part.size() - 2) : part;
            if (!closed || !is_param_name(name)) {
                fail("'" + std::string(part) + "' is not a {name} capture of [A-Za-z0-9_]");
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

/// Same method and same literals at the same places: the two could never be told apart.
bool same_shape(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        const bool a_capture = is_capture(a[i]);
        if (a_capture != is_capture(b[i]) || (!a_capture && a[i] != b[i])) {
            return false;
        }
    }
    return true;
}

/// True when `a` is more specific than `b`: at the first position where they differ in kind,
/// `a` has the literal.
bool more_specific(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    for (std::size_t i = 0; i < a.size(); ++i) {
        const bool a_capture = is_capture(a[i]);
        if (a_capture != is_capture(b[i])) {
            return !a_capture;
        }
    }
    return false;
}

}  // namespace

Router::Router(const std::vector<RegisteredRoute>& routes) {
    entries_.reserve(routes.size());
    for (const RegisteredRoute& route : routes) {
        if (!route.route.prepare) {
            throw std::invalid_argument("route " + describe(route) + " of plugin '" + route.plugin +
                                        "' has no handler");
        }
        Entry entry{parse_pattern(route), &route};
        for (const Entry& existing : entries_) {
            if (existing.route->route.method == route.route.method &&
                same_shape(existing.segments, entry.segments)) {
                throw std::invalid_argument("duplicate route " + describe(route) + ": plugin '" +
                                            route.plugin + "' registers it, plugin '" +
                                            existing.route->plugin + "' already did (as " +
                                            existing.route->route.pattern + ")");
            }
        }
        entries_.push_back(std::move(entry));
    }
}

RouteMatch Router::match(Method method, std::string_view path) const {
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
        if (entry.segments.size() != segments.size()) {
            continue;
        }
        bool matches = true;
        for (std::size_t i = 0; i < segments.size() && matches; ++i) {
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
        if (entry_method == method && (!best || more_specific(entry.segments, best->segments))) {
            best = &entry;
        }
        if (entry_method == Method::get &&
            (!best_get || more_specific(entry.segments, best_get->segments))) {
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
    for (std::size_t i = 0; i < segments.size(); ++i) {
        if (is_capture(best->segments[i])) {
            const std::string& pattern = best->segments[i];
            result.params.emplace(pattern.substr(1, pattern.size() - 2), std::move(segments[i]));
        }
    }
    return result;
}

}  // namespace loupe
