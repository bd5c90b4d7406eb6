#pragma once
// A strict reader of the Prometheus text exposition format (0.0.4) for tests: it refuses what
// the format forbids (a sample before its family's TYPE, a family split in two, a repeated
// series, a bad name, label or escape, an unparsable value, histogram buckets that are not
// cumulative or whose +Inf bucket differs from _count) with a message naming the line.

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace loupe::test {

struct PromSample {
    std::string name;
    std::map<std::string, std::string> labels;
    double value = 0;
};

struct PromFamily {
    std::string type;  ///< counter | gauge | histogram | summary | untyped
    std::string help;
    std::vector<PromSample> samples;
};

class PromText {
public:
    /// Throws std::runtime_error on anything the format does not allow.
    static PromText parse(const std::string& text);

    bool has(const std::string& family) const { return families.contains(family); }
    /// The value of the sample `name` whose labels include `labels`; throws if none or several.
    double value(const std::string& name,
                 const std::map<std::string, std::string>& labels = {}) const;
    /// The sum of the values of every sample `name` whose labels include `labels` (0 if none).
    double sum(const std::string& name,
               const std::map<std::string, std::string>& labels = {}) const;

    std::map<std::string, PromFamily> families;
};

}  // namespace loupe::test
