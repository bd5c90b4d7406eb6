#include "http/registered_listener.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "auth/access_gate.hpp"

namespace loupe {

bool is_listener_name(const std::string& name) {
    return !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
}

RegisteredListener::RegisteredListener(ListenerSpec spec, std::string plugin)
    : spec_(std::move(spec)), plugin_(std::move(plugin)) {
    if (!is_listener_name(spec_.name)) {
        throw std::logic_error("plugin '" + plugin_ + "' asked for a listener named \"" +
                               spec_.name + "\": use 1 to 32 of a-z, 0-9 and '-'");
    }
    while (!spec_.public_url.empty() && spec_.public_url.back() == '/') {
        spec_.public_url.pop_back();
    }
}

void RegisteredListener::ListenerRoutes::add(Route route) {
    RegisteredListener& listener = listener_;
    const std::string where =
        "listener '" + listener.spec_.name + "' of plugin '" + listener.plugin_ + "'";
    if (listener.closed_) {
        throw std::logic_error(where + " got a route after install(); registration is only " +
                               "allowed during install()");
    }
    // A listener for content the API must not share its origin with reads no credential.
    if (route.auth != AuthRequirement::none) {
        throw std::logic_error(where + ": route " + route.pattern +
                               " asks for authentication; a listener's routes take none");
    }
    // Nobody is authenticated there, so no permission can be checked: every route is public,
    // with the reason it may be (RouteAccess::public_route("...")).
    if (route.access.guard != RouteAccess::Guard::public_route) {
        throw std::logic_error(where + ": route " + route.pattern +
                               " is not declared public; a listener's routes are all "
                               "RouteAccess::public_route(\"why\")");
    }
    if (const auto problem = route_access_problem(route)) {
        throw std::logic_error(where + ": route " + route.pattern + " " + *problem);
    }
    if (!route.options.host_suffix.empty()) {
        throw std::logic_error(where + ": route " + route.pattern +
                               " names a virtual host; a listener's routes answer every host");
    }
    listener.routes_.push_back(RegisteredRoute{std::move(route), listener.plugin_});
}

std::string RegisteredListener::public_url() const {
    if (!spec_.public_url.empty()) {
        return spec_.public_url;
    }
    const std::lock_guard lock(mutex_);
    if (!served_url_.empty()) {
        return served_url_;
    }
    return "http://127.0.0.1:" + std::to_string(bound_port_ != 0 ? bound_port_ : spec_.port);
}

void RegisteredListener::set_served_url(std::string url) {
    const std::lock_guard lock(mutex_);
    served_url_ = std::move(url);
}

void RegisteredListener::set_bound_port(int port) {
    const std::lock_guard lock(mutex_);
    bound_port_ = port;
}

}  // namespace loupe
