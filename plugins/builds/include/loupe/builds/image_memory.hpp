#pragma once
// The memory the builds plugin's diff workers share (plugins.builds.diff_memory_mb), offered to
// other plugins that decode stored images (the web page's thumbnails), so that every decode in
// the process draws on one budget: reservations are granted in arrival order while they fit,
// and one larger than the whole budget waits until it runs alone.
//
// Look it up at install time: `auto* memory = host.services().find<ImageMemory>();`
// OWNERSHIP: owned by the builds plugin for the process lifetime. THREADS: thread-safe.
// VERSIONING: a new method is a minor change; changing a signature bumps service_version.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace loupe::builds {

class ImageMemory {
public:
    static constexpr const char* service_name = "builds.ImageMemory";
    static constexpr int service_version = 1;

    /// Memory held until the object goes away.
    class Reservation {
    public:
        virtual ~Reservation() = default;
        virtual uint64_t bytes() const = 0;
    };

    /// How many first bytes of a file decode_need reads its dimensions from.
    static constexpr std::size_t prefix_bytes = 256 * 1024;

    virtual ~ImageMemory() = default;

    /// What decoding one stored image holds at its peak, worked out from its first bytes (its first
    /// prefix_bytes, or all of a smaller file) and its size, before anything is decoded.
    virtual uint64_t decode_need(std::span<const uint8_t> prefix, uint64_t file_bytes) = 0;

    /// Waits until `bytes` fit in the budget, then holds them. `purpose` names the user in the
    /// metrics (loupe_image_memory_reservations_total{purpose}).
    virtual std::unique_ptr<Reservation> reserve(uint64_t bytes, const std::string& purpose) = 0;
};

}  // namespace loupe::builds
