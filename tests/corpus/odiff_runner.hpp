#pragma once
// Runs the odiff binary exactly as Argos runs it (through odiff-bin's compare(): the base, the
// head, a diff PNG, then --parsable-stdout --diff-mask --threshold=T --antialiasing).

#include <cstdint>
#include <string>

namespace loupe::corpus {

struct OdiffResult {
    uint64_t count = 0;      ///< exact differing pixels (0 when the images match)
    std::string percentage;  ///< as printed (two decimals), for reports only
};

/// Runs one odiff pass; throws std::runtime_error on a spawn failure or an exit code other than
/// 0 (match) or 22 (pixel differences).
OdiffResult run_odiff(const std::string& odiff, const std::string& base, const std::string& head,
                      const std::string& diff_png, double threshold);

}  // namespace loupe::corpus
