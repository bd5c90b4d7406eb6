#pragma once

#include <chrono>

namespace loupe::imagediff {

class Stopwatch {
public:
    double elapsed_ms() const {
        return std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
    }

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point start_ = Clock::now();
};

}  // namespace loupe::imagediff
