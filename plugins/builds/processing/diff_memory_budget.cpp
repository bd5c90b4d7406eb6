#include "processing/diff_memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <string>

namespace loupe::builds {
namespace {

constexpr uint64_t mebibyte = uint64_t{1} << 20;

/// cgroup v2's memory.max of this process's group: a byte count, or "max" for none.
std::optional<uint64_t> cgroup_memory_limit() {
    std::ifstream membership("/proc/self/cgroup");
    std::string line;
    std::string group;
    while (std::getline(membership, line)) {
        if (line.starts_with("0::")) {  // the unified hierarchy
            group = line.substr(3);
        }
    }
    std::ifstream limit("/sys/fs/cgroup" + group + "/memory.max");
    std::string text;
    if (!(limit >> text)) {
        return std::nullopt;
    }
    uint64_t bytes = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
    if (error != std::errc{} || end != text.data() + text.size()) {
        return std::nullopt;  // "max"
    }
    return bytes;
}

}  // namespace

DiffMemoryBudget::DiffMemoryBudget(uint64_t capacity_bytes)
    : capacity_(std::max<uint64_t>(capacity_bytes, 1)) {}

DiffMemoryBudget::Grant::~Grant() {
    budget_->release(bytes_);
}

DiffMemoryBudget::Grant DiffMemoryBudget::acquire(uint64_t bytes) {
    const uint64_t held = std::min(bytes, capacity_);
    std::unique_lock lock(mutex_);
    const uint64_t ticket = next_ticket_++;
    changed_.wait(lock, [&] { return serving_ == ticket && in_use_ + held <= capacity_; });
    in_use_ += held;
    ++serving_;
    lock.unlock();
    changed_.notify_all();  // the next in line may fit too
    return Grant(*this, held);
}

uint64_t DiffMemoryBudget::in_use() const {
    std::lock_guard lock(mutex_);
    return in_use_;
}

void DiffMemoryBudget::release(uint64_t bytes) {
    {
        std::lock_guard lock(mutex_);
        in_use_ -= bytes;
    }
    changed_.notify_all();
}

uint64_t default_diff_memory_bytes() {
    uint64_t usable = static_cast<uint64_t>(::sysconf(_SC_PHYS_PAGES)) *
                      static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    if (const auto limit = cgroup_memory_limit()) {
        usable = std::min(usable, *limit);
    }
    return std::max(usable / 2, 256 * mebibyte);
}

uint64_t diff_memory_bytes_setting(int64_t megabytes) {
    return megabytes > 0 ? static_cast<uint64_t>(megabytes) * mebibyte
                         : default_diff_memory_bytes();
}

}  // namespace loupe::builds
