#pragma once
// The builds plugin's ImageMemory service: its diff memory budget, lent to other plugins'
// decoders, with the estimate the diffs use and a count of reservations per purpose.

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "loupe/builds/image_memory.hpp"
#include "loupe/metrics/metrics.hpp"
#include "processing/diff_memory_budget.hpp"

namespace loupe::builds {

class ImageMemoryService final : public ImageMemory {
public:
    /// `metrics` may be null (no counts kept).
    ImageMemoryService(std::shared_ptr<DiffMemoryBudget> budget, metrics::Metrics* metrics);

    uint64_t decode_need(std::span<const uint8_t> prefix, uint64_t file_bytes) override;
    std::unique_ptr<Reservation> reserve(uint64_t bytes, const std::string& purpose) override;

private:
    metrics::Counter* counter_for(const std::string& purpose);

    std::shared_ptr<DiffMemoryBudget> budget_;
    metrics::Metrics* metrics_;
    std::mutex mutex_;
    std::map<std::string, metrics::Counter*> counters_;
};

}  // namespace loupe::builds
