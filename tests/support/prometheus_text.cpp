#include "support/prometheus_text.hpp"

#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

namespace loupe::test {
namespace {

[[noreturn]] void fail(int line_number, const std::string& line, const std::string& problem) {
    throw std::runtime_error("line " + std::to_string(line_number) + " (" + line + "): " + problem);
}

bool is_name_char(char c, bool first, bool colon) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    return letter || (colon && c == ':') || (!first && c >= '0' && c <= '9');
}

/// Reads a name at `pos`; empty if none.
std::string read_name(const std::string& text, std::size_t& pos, bool colon) {
    const std::size_t start = pos;
    while (pos < text.size() && is_name_char(text[pos], pos == start, colon)) {
        ++pos;
    }
    return text.substr(start, pos - start);
}

double parse_value(const std::string& text, int line_number, const std::string& line) {
    if (text == "+Inf") {
        return INFINITY;
    }
    if (text == "-Inf") {
        return -INFINITY;
    }
    if (text == "NaN") {
        return NAN;
    }
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() ||
        text.find_first_of("xXpP") != std::string::npos) {
        fail(line_number, line, "bad value '" + text + "'");
    }
    return value;
}

std::string family_of(const std::string& sample, const std::string& current_family,
                      const std::string& type) {
    if (type == "histogram") {
        for (const char* suffix : {"_bucket", "_sum", "_count"}) {
            if (sample == current_family + suffix) {
                return current_family;
            }
        }
    }
    return sample;
}

void check_histograms(const PromFamily& family, const std::string& name) {
    // Group the series by their labels without "le".
    std::map<std::map<std::string, std::string>, std::vector<const PromSample*>> buckets;
    std::map<std::map<std::string, std::string>, double> counts;
    for (const auto& sample : family.samples) {
        auto labels = sample.labels;
        if (sample.name == name + "_bucket") {
            if (!labels.contains("le")) {
                throw std::runtime_error(name + ": a bucket without le");
            }
            labels.erase("le");
            buckets[labels].push_back(&sample);
        } else if (sample.name == name + "_count") {
            counts[labels] = sample.value;
        }
    }
    for (const auto& [labels, series] : buckets) {
        double previous_bound = -INFINITY;
        double previous_count = 0;
        for (const PromSample* bucket : series) {
            const double bound = bucket->labels.at("le") == "+Inf"
                                     ? INFINITY
                                     : std::strtod(bucket->labels.at("le").c_str(), nullptr);
            if (bound <= previous_bound || bucket->value < previous_count) {
                throw std::runtime_error(name + ": buckets not ascending or not cumulative");
            }
            previous_bound = bound;
            previous_count = bucket->value;
        }
        if (previous_bound != INFINITY) {
            throw std::runtime_error(name + ": no +Inf bucket");
        }
        if (!counts.contains(labels) || counts.at(labels) != previous_count) {
            throw std::runtime_error(name + ": _count differs from the +Inf bucket");
        }
    }
}

}  // namespace

PromText PromText::parse(const std::string& text) {
    PromText result;
    std::istringstream lines(text);
    std::string line;
    int number = 0;
    std::string current;  // the family whose samples may follow
    std::set<std::string> closed;
    std::set<std::pair<std::string, std::map<std::string, std::string>>> seen;
    while (std::getline(lines, line)) {
        ++number;
        if (line.empty()) {
            continue;
        }
        if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) {
            std::size_t pos = 7;
            const std::string name = read_name(line, pos, true);
            if (name.empty() || pos >= line.size() || line[pos] != ' ') {
                fail(number, line, "bad metric name in a HELP/TYPE line");
            }
            const std::string rest = line.substr(pos + 1);
            if (name != current) {
                if (closed.contains(name) || result.families.contains(name)) {
                    fail(number, line, "family " + name + " appears twice");
                }
                if (!current.empty()) {
                    closed.insert(current);
                }
                current = name;
            }
            auto& family = result.families[name];
            if (line[2] == 'H') {
                for (std::size_t i = 0; i < rest.size(); ++i) {
                    if (rest[i] == '\\' &&
                        (i + 1 >= rest.size() || (rest[i + 1] != '\\' && rest[i + 1] != 'n'))) {
                        fail(number, line, "bad escape in HELP");
                    }
                    if (rest[i] == '\\') {
                        ++i;
                    }
                }
                family.help = rest;
            } else {
                static const std::set<std::string> types{"counter", "gauge", "histogram", "summary",
                                                         "untyped"};
                if (!types.contains(rest) || !family.type.empty() || !family.samples.empty()) {
                    fail(number, line, "bad or late TYPE");
                }
                family.type = rest;
            }
            continue;
        }
        if (line[0] == '#') {
            continue;  // a comment
        }
        std::size_t pos = 0;
        PromSample sample;
        sample.name = read_name(line, pos, true);
        if (sample.name.empty()) {
            fail(number, line, "bad metric name");
        }
        if (pos < line.size() && line[pos] == '{') {
            ++pos;
            while (pos < line.size() && line[pos] != '}') {
                const std::string label = read_name(line, pos, false);
                if (label.empty() || pos + 1 >= line.size() || line[pos] != '=' ||
                    line[pos + 1] != '"') {
                    fail(number, line, "bad label");
                }
                pos += 2;
                std::string value;
                while (pos < line.size() && line[pos] != '"') {
                    if (line[pos] == '\\') {
                        if (pos + 1 >= line.size()) {
                            fail(number, line, "bad escape");
                        }
                        const char escaped = line[pos + 1];
                        if (escaped == 'n') {
                            value += '\n';
                        } else if (escaped == '\\' || escaped == '"') {
                            value += escaped;
                        } else {
                            fail(number, line, "bad escape");
                        }
                        pos += 2;
                    } else {
                        value += line[pos++];
                    }
                }
                if (pos >= line.size()) {
                    fail(number, line, "unterminated label value");
                }
                ++pos;  // closing quote
                if (!sample.labels.emplace(label, value).second) {
                    fail(number, line, "label " + label + " twice");
                }
                if (pos < line.size() && line[pos] == ',') {
                    ++pos;
                }
            }
            if (pos >= line.size()) {
                fail(number, line, "unterminated labels");
            }
            ++pos;  // '}'
        }
        if (pos >= line.size() || line[pos] != ' ') {
            fail(number, line, "no space before the value");
        }
        const std::string rest = line.substr(pos + 1);
        const std::string value_text = rest.substr(0, rest.find(' '));
        sample.value = parse_value(value_text, number, line);
        const auto& type = result.families.contains(current) ? result.families[current].type : "";
        const std::string family = family_of(sample.name, current, type);
        if (family != current || type.empty()) {
            fail(number, line, "sample outside its family's HELP/TYPE block");
        }
        if (!seen.emplace(sample.name, sample.labels).second) {
            fail(number, line, "series repeated");
        }
        result.families[family].samples.push_back(std::move(sample));
    }
    for (const auto& [name, family] : result.families) {
        if (family.type == "histogram") {
            check_histograms(family, name);
        }
        if (family.type == "counter") {
            for (const auto& sample : family.samples) {
                if (sample.value < 0) {
                    throw std::runtime_error(name + ": a negative counter");
                }
            }
        }
    }
    return result;
}

namespace {

bool includes(const std::map<std::string, std::string>& labels,
              const std::map<std::string, std::string>& wanted) {
    for (const auto& [name, value] : wanted) {
        const auto it = labels.find(name);
        if (it == labels.end() || it->second != value) {
            return false;
        }
    }
    return true;
}

}  // namespace

double PromText::value(const std::string& name,
                       const std::map<std::string, std::string>& labels) const {
    const PromSample* found = nullptr;
    for (const auto& [_, family] : families) {
        for (const auto& sample : family.samples) {
            if (sample.name == name && includes(sample.labels, labels)) {
                if (found != nullptr) {
                    throw std::runtime_error("several samples " + name + " match");
                }
                found = &sample;
            }
        }
    }
    if (found == nullptr) {
        throw std::runtime_error("no sample " + name + " with these labels");
    }
    return found->value;
}

double PromText::sum(const std::string& name,
                     const std::map<std::string, std::string>& labels) const {
    double total = 0;
    for (const auto& [_, family] : families) {
        for (const auto& sample : family.samples) {
            if (sample.name == name && includes(sample.labels, labels)) {
                total += sample.value;
            }
        }
    }
    return total;
}

}  // namespace loupe::test
