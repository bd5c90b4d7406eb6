#pragma once
// Sqids (sqids.org): short ids from lists of numbers, as the npm `sqids` package 0.3 encodes and
// decodes them. Argos writes its public test ids with it, so Loupe's must match byte for byte.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::builds {

/// The specification's default blocklist (560 words, lower case).
const std::vector<std::string>& sqids_default_blocklist();

class Sqids {
public:
    /// Largest encodable number: JavaScript's Number.MAX_SAFE_INTEGER, as the npm package.
    static constexpr uint64_t max_value = (uint64_t{1} << 53) - 1;

    /// `alphabet`: at least 3 distinct single-byte characters; `min_length` at most 255.
    /// Blocklist words shorter than 3 characters or using characters outside the alphabet
    /// (compared in lower case) are dropped, as the package does. Throws std::invalid_argument.
    Sqids(std::string_view alphabet, unsigned min_length,
          const std::vector<std::string>& blocklist = sqids_default_blocklist());

    /// The id of `numbers` ("" for none). Throws std::out_of_range above max_value.
    std::string encode(const std::vector<uint64_t>& numbers) const;

    /// The numbers of `id`; empty when it holds a character outside the alphabet or starts with
    /// a separator. Like the package, a non-canonical id may decode too (callers look the number
    /// up). A number above max_value (where the package loses precision) empties the result.
    std::vector<uint64_t> decode(std::string_view id) const;

private:
    std::string encode_with(const std::vector<uint64_t>& numbers, std::size_t increment) const;
    bool is_blocked(const std::string& id) const;

    std::string alphabet_;  ///< the caller's alphabet, shuffled once
    unsigned min_length_;
    std::vector<std::string> blocklist_;  ///< lower case, filtered
};

}  // namespace loupe::builds
