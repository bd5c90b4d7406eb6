#include "ids/public_ids.hpp"

#include <cctype>

#include "ids/sqids.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::builds {
namespace {

// Argos's Sqids settings; changing any of them would change every id already handed out.
const Sqids& argos_sqids() {
    static const Sqids sqids("FN5LTPGRW98EB2X3ZYHDCU0AS7KJQV64MO1I", 4);
    return sqids;
}

constexpr std::string_view fingerprint_prefix = "v1:g16:d1:t0.002,0.02,0.08:";
constexpr std::string_view short_prefix = "v1";

std::string shortened(std::string_view fingerprint) {
    if (!fingerprint.starts_with(fingerprint_prefix)) {
        return std::string(fingerprint);
    }
    return std::string(short_prefix) + std::string(fingerprint.substr(fingerprint_prefix.size()));
}

std::string expanded(std::string_view token) {
    if (!token.starts_with(short_prefix)) {
        return std::string(token);
    }
    return std::string(fingerprint_prefix) + std::string(token.substr(short_prefix.size()));
}

bool all_of(std::string_view text, int (*predicate)(int)) {
    for (char c : text) {
        if (predicate(static_cast<unsigned char>(c)) == 0) {
            return false;
        }
    }
    return true;
}

int is_lower_hex(int c) {
    return std::isdigit(c) != 0 || (c >= 'a' && c <= 'f') ? 1 : 0;
}

// `<digits>-<16 lower-case hex digits>`: Loupe's change ids before the Argos form.
std::optional<ChangeRef> parse_legacy(std::string_view id) {
    const auto dash = id.find('-');
    if (dash == 0 || dash == std::string_view::npos || dash > 18 || id.size() != dash + 17) {
        return std::nullopt;
    }
    const auto number = id.substr(0, dash);
    const auto hash = id.substr(dash + 1);
    if (!all_of(number, isdigit) || !all_of(hash, is_lower_hex)) {
        return std::nullopt;
    }
    return ChangeRef{std::stoll(std::string(number)), std::string(hash), true};
}

}  // namespace

std::string test_public_id(std::string_view project_name, int64_t test_id) {
    return to_upper(project_name) + "-" + argos_sqids().encode({static_cast<uint64_t>(test_id)});
}

std::string change_public_id(std::string_view project_name, int64_t test_id,
                             std::string_view fingerprint) {
    return test_public_id(project_name, test_id) + "-" + shortened(fingerprint);
}

std::optional<TestRef> parse_test_public_id(std::string_view id) {
    const auto dash = id.rfind('-');
    if (dash == std::string_view::npos || dash == 0 || dash + 1 == id.size()) {
        return std::nullopt;
    }
    const auto sqid = id.substr(dash + 1);
    const auto numbers = argos_sqids().decode(sqid);
    if (numbers.size() != 1 || argos_sqids().encode(numbers) != sqid) {
        return std::nullopt;
    }
    return TestRef{std::string(id.substr(0, dash)), static_cast<int64_t>(numbers.front())};
}

std::optional<ChangeRef> parse_change_public_id(std::string_view id) {
    // <project>-<sqid>-<fingerprint>, split at the last two dashes (project names have dashes).
    const auto fingerprint_dash = id.rfind('-');
    if (fingerprint_dash == std::string_view::npos || fingerprint_dash == 0) {
        return std::nullopt;
    }
    const auto sqid_dash = id.rfind('-', fingerprint_dash - 1);
    if (sqid_dash == std::string_view::npos || sqid_dash == 0) {
        return parse_legacy(id);
    }
    const auto sqid = id.substr(sqid_dash + 1, fingerprint_dash - sqid_dash - 1);
    const auto token = id.substr(fingerprint_dash + 1);
    const auto numbers = argos_sqids().decode(sqid);
    if (numbers.empty() || token.empty()) {
        return std::nullopt;
    }
    return ChangeRef{static_cast<int64_t>(numbers.front()), expanded(token), false};
}

}  // namespace loupe::builds
