#pragma once
// The core's side of an extra listener (loupe/http/listeners.hpp): its spec, its route table
// and, once `loupe serve` bound it, its port. Created in a plugin's staged Host, moved into the
// registries when the plugin's install() succeeds.

#include <mutex>
#include <string>
#include <vector>

#include "loupe/http/listeners.hpp"
#include "plugin/registries.hpp"

namespace loupe {

class LOUPE_API RegisteredListener final : public Listener {
public:
    /// Throws std::logic_error for a name outside [a-z0-9-]{1,32}.
    RegisteredListener(ListenerSpec spec, std::string plugin);

    const std::string& name() const override { return spec_.name; }
    Routes& routes() override { return routes_facade_; }
    std::string public_url() const override;

    const ListenerSpec& spec() const { return spec_; }
    const std::string& plugin() const { return plugin_; }
    /// The route table, frozen once registration closed (the Router points into it).
    const std::vector<RegisteredRoute>& route_table() const { return routes_; }
    /// After install(): registering a route throws from now on.
    void close_registration() { closed_ = true; }
    /// Called by `loupe serve` once the listener is bound.
    void set_bound_port(int port);
    /// Where it is served when no socket serves it (the tests' in-process host): public_url()
    /// answers this unless the spec names a public URL.
    void set_served_url(std::string url);

private:
    struct ListenerRoutes final : Routes {
        explicit ListenerRoutes(RegisteredListener& listener) : listener_(listener) {}
        void add(Route route) override;
        using Routes::add;
        RegisteredListener& listener_;
    };

    ListenerSpec spec_;
    std::string plugin_;
    std::vector<RegisteredRoute> routes_;
    ListenerRoutes routes_facade_{*this};
    bool closed_ = false;
    mutable std::mutex mutex_;
    int bound_port_ = 0;
    std::string served_url_;
};

/// True for a listener name: 1 to 32 of [a-z0-9-].
bool is_listener_name(const std::string& name);

}  // namespace loupe
