#include "jobs/instance_id.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <random>

namespace loupe {

std::string new_instance_id() {
    std::array<char, 256> host{};
    if (::gethostname(host.data(), host.size() - 1) != 0 || host[0] == '\0') {
        std::snprintf(host.data(), host.size(), "localhost");
    }
    std::random_device random;
    std::array<char, 9> suffix{};
    std::snprintf(suffix.data(), suffix.size(), "%08x", static_cast<unsigned>(random()));
    return std::string(host.data()) + ":" + std::to_string(::getpid()) + ":" + suffix.data();
}

}  // namespace loupe
