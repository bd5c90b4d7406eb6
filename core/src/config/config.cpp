#include "config/config.hpp"

#include <Poco/AutoPtr.h>
#include <Poco/Exception.h>
#include <Poco/Util/PropertyFileConfiguration.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace loupe {
namespace {

// `${other.key}` inside a value is replaced by that key's value, looked up with the same
// precedence (so LOUPE_DATA_DIR also moves `db.url=sqlite:${data.dir}/loupe.db`).
constexpr int max_reference_depth = 8;

class PrefixedConfigView final : public ConfigView {
public:
    PrefixedConfigView(const Config& config, std::string prefix)
        : config_(config), prefix_(std::move(prefix)) {}
    std::optional<std::string> find(const std::string& key) const override {
        return config_.find(prefix_ + key);
    }
    std::vector<std::string> keys_with_prefix(const std::string& prefix) const override {
        std::vector<std::string> keys;
        for (const auto& key : config_.keys_with_prefix(prefix_ + prefix)) {
            keys.push_back(key.substr(prefix_.size()));
        }
        return keys;
    }

private:
    const Config& config_;
    std::string prefix_;
};

void collect_keys(const Poco::Util::AbstractConfiguration& file, const std::string& root,
                  std::set<std::string>& keys) {
    Poco::Util::AbstractConfiguration::Keys children;
    file.keys(root, children);
    for (const auto& child : children) {
        const auto key = root.empty() ? child : root + "." + child;
        if (file.has(key)) {
            keys.insert(key);
        }
        collect_keys(file, key, keys);
    }
}

}  // namespace

struct Config::Impl {
    Poco::AutoPtr<Poco::Util::PropertyFileConfiguration> file;
    std::map<std::string, std::string> overrides;

    std::optional<std::string> raw_find(const std::string& key) const {
        if (const auto it = overrides.find(key); it != overrides.end()) {
            return it->second;
        }
        if (const char* value = std::getenv(Config::env_name(key).c_str())) {
            return std::string(value);
        }
        if (file && file->has(key)) {
            return file->getRawString(key);
        }
        return std::nullopt;
    }

    std::string expand(const std::string& key, const std::string& value, int depth) const {
        std::string result;
        std::size_t position = 0;
        while (true) {
            const auto start = value.find("${", position);
            const auto end = start == std::string::npos ? start : value.find('}', start + 2);
            if (end == std::string::npos) {
                return result + value.substr(position);
            }
            const auto name = value.substr(start + 2, end - start - 2);
            if (depth >= max_reference_depth) {
                throw std::runtime_error("configuration key '" + key + "': references to ${" +
                                         name + "} nest too deeply (a cycle?)");
            }
            const auto referenced = raw_find(name);
            if (!referenced) {
                throw std::runtime_error("configuration key '" + key + "' refers to ${" + name +
                                         "}, which is not set");
            }
            result += value.substr(position, start - position);
            result += expand(name, *referenced, depth + 1);
            position = end + 1;
        }
    }
};

Config::Config() : impl_(std::make_unique<Impl>()) {}

Config::~Config() = default;

std::unique_ptr<Config> Config::load(const std::string& properties_path,
                                     std::map<std::string, std::string> overrides) {
    std::unique_ptr<Config> config(new Config());
    config->impl_->overrides = std::move(overrides);
    if (properties_path.empty()) {
        return config;
    }
    std::error_code error;
    if (!std::filesystem::is_regular_file(properties_path, error)) {
        throw std::runtime_error("configuration file " + properties_path + " does not exist");
    }
    try {
        config->impl_->file = new Poco::Util::PropertyFileConfiguration(properties_path);
    } catch (const Poco::Exception& failure) {
        throw std::runtime_error("cannot read configuration file " + properties_path + ": " +
                                 failure.displayText());
    }
    return config;
}

std::optional<std::string> Config::find(const std::string& key) const {
    auto value = impl_->raw_find(key);
    if (value) {
        return impl_->expand(key, *value, 0);
    }
    return value;
}

std::unique_ptr<ConfigView> Config::view(const std::string& prefix) const {
    return std::make_unique<PrefixedConfigView>(*this, prefix);
}

std::vector<std::string> Config::keys() const {
    std::set<std::string> keys;
    if (impl_->file) {
        collect_keys(*impl_->file, "", keys);
    }
    for (const auto& [key, value] : impl_->overrides) {
        keys.insert(key);
    }
    return {keys.begin(), keys.end()};
}

std::vector<std::string> Config::keys_with_prefix(const std::string& prefix) const {
    std::vector<std::string> matching;
    for (auto& key : keys()) {
        if (key.starts_with(prefix)) {
            matching.push_back(std::move(key));
        }
    }
    return matching;
}

std::string Config::env_name(const std::string& key) {
    std::string name = "LOUPE_";
    for (const char c : key) {
        name += (c == '.' || c == '-')
                    ? '_'
                    : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return name;
}

}  // namespace loupe
