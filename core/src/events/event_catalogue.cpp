#include "events/event_catalogue.hpp"

#include <stdexcept>

namespace loupe {
namespace {

std::string version_list(const std::set<int>& versions) {
    std::string list;
    for (const int version : versions) {
        list += (list.empty() ? "" : ", ") + std::to_string(version);
    }
    return list;
}

}  // namespace

void check_event_subscriptions(const Registries& registries) {
    for (const auto& [type, subscription] : registries.event_subscriptions) {
        const auto publisher = registries.event_publishers.find(type);
        if (publisher == registries.event_publishers.end() ||
            publisher->second.versions.contains(subscription.version)) {
            continue;
        }
        throw std::runtime_error(
            "plugin '" + subscription.plugin + "' subscribes '" + subscription.subscriber +
            "' to event '" + type + "' version " + std::to_string(subscription.version) +
            ", but plugin '" + publisher->second.plugin + "' publishes version " +
            version_list(publisher->second.versions) + " (rebuild one against the other)");
    }
}

std::vector<std::string> idle_event_subscriptions(const Registries& registries) {
    std::vector<std::string> idle;
    for (const auto& [type, subscription] : registries.event_subscriptions) {
        if (!registries.event_publishers.contains(type)) {
            idle.push_back(subscription.plugin + ": " + subscription.subscriber + " <- " + type +
                           " v" + std::to_string(subscription.version));
        }
    }
    return idle;
}

}  // namespace loupe
