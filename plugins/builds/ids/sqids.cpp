#include "ids/sqids.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "loupe/text/strings.hpp"

namespace loupe::builds {
namespace {

// The specification's deterministic shuffle: swaps position i with a position derived from the
// two characters at i and at its mirror, walking inwards.
std::string shuffled(std::string chars) {
    const std::size_t size = chars.size();
    for (std::size_t i = 0, j = size - 1; j > 0; ++i, --j) {
        const std::size_t r =
            (i * j + static_cast<unsigned char>(chars[i]) + static_cast<unsigned char>(chars[j])) %
            size;
        std::swap(chars[i], chars[r]);
    }
    return chars;
}

// `number` in base alphabet.size(), most significant digit first.
std::string to_id(uint64_t number, std::string_view alphabet) {
    std::string digits;
    do {
        digits.push_back(alphabet[number % alphabet.size()]);
        number /= alphabet.size();
    } while (number > 0);
    std::reverse(digits.begin(), digits.end());
    return digits;
}

// The inverse of to_id; false when the value passes Sqids::max_value.
bool to_number(std::string_view digits, std::string_view alphabet, uint64_t& number) {
    number = 0;
    for (char c : digits) {
        const uint64_t digit = alphabet.find(c);
        if (number > (Sqids::max_value - digit) / alphabet.size()) {
            return false;
        }
        number = number * alphabet.size() + digit;
    }
    return true;
}

std::string rotated_reversed(const std::string& alphabet, std::size_t offset) {
    std::string out = alphabet.substr(offset) + alphabet.substr(0, offset);
    std::reverse(out.begin(), out.end());
    return out;
}

bool has_digit(const std::string& word) {
    return std::any_of(word.begin(), word.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

Sqids::Sqids(std::string_view alphabet, unsigned min_length,
             const std::vector<std::string>& blocklist)
    : min_length_(min_length) {
    if (alphabet.size() < 3) {
        throw std::invalid_argument("Sqids alphabet length must be at least 3");
    }
    std::string sorted(alphabet);
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        throw std::invalid_argument("Sqids alphabet must contain unique characters");
    }
    if (std::any_of(alphabet.begin(), alphabet.end(),
                    [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
        throw std::invalid_argument("Sqids alphabet cannot contain multibyte characters");
    }
    if (min_length > 255) {
        throw std::invalid_argument("Sqids minimum length has to be between 0 and 255");
    }
    const std::string alphabet_lower = to_lower(alphabet);
    for (const auto& word : blocklist) {
        std::string word_lower = to_lower(word);
        const bool usable =
            word.size() >= 3 && std::all_of(word_lower.begin(), word_lower.end(), [&](char c) {
                return alphabet_lower.find(c) != std::string::npos;
            });
        if (usable &&
            std::find(blocklist_.begin(), blocklist_.end(), word_lower) == blocklist_.end()) {
            blocklist_.push_back(std::move(word_lower));
        }
    }
    alphabet_ = shuffled(std::string(alphabet));
}

std::string Sqids::encode(const std::vector<uint64_t>& numbers) const {
    if (numbers.empty()) {
        return "";
    }
    for (uint64_t number : numbers) {
        if (number > max_value) {
            throw std::out_of_range("Sqids encodes numbers between 0 and 2^53 - 1");
        }
    }
    return encode_with(numbers, 0);
}

std::string Sqids::encode_with(const std::vector<uint64_t>& numbers, std::size_t increment) const {
    const std::size_t size = alphabet_.size();
    if (increment > size) {
        throw std::runtime_error("Sqids reached the most attempts to generate an unblocked id");
    }
    // The starting rotation depends on every number and its position, then on the attempt.
    std::size_t offset = numbers.size();
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        offset += static_cast<unsigned char>(alphabet_[numbers[i] % size]) + i;
    }
    offset = (offset % size + increment) % size;
    std::string alphabet = rotated_reversed(alphabet_, offset);
    std::string id(1, alphabet_[offset]);
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        id += to_id(numbers[i], std::string_view(alphabet).substr(1));
        if (i + 1 < numbers.size()) {
            id += alphabet[0];
            alphabet = shuffled(alphabet);
        }
    }
    if (min_length_ > id.size()) {
        id += alphabet[0];
        while (min_length_ > id.size()) {
            alphabet = shuffled(alphabet);
            id += alphabet.substr(0, std::min<std::size_t>(min_length_ - id.size(), size));
        }
    }
    return is_blocked(id) ? encode_with(numbers, increment + 1) : id;
}

std::vector<uint64_t> Sqids::decode(std::string_view id) const {
    std::vector<uint64_t> numbers;
    if (id.empty() || id.find_first_not_of(alphabet_) != std::string_view::npos) {
        return numbers;
    }
    std::string alphabet = rotated_reversed(alphabet_, alphabet_.find(id[0]));
    std::string_view rest = id.substr(1);
    while (!rest.empty()) {
        const std::size_t separator = rest.find(alphabet[0]);
        const std::string_view chunk = rest.substr(0, separator);
        if (chunk.empty()) {
            return numbers;
        }
        uint64_t number = 0;
        if (!to_number(chunk, std::string_view(alphabet).substr(1), number)) {
            return {};
        }
        numbers.push_back(number);
        if (separator == std::string_view::npos) {
            break;
        }
        alphabet = shuffled(alphabet);
        rest = rest.substr(separator + 1);
    }
    return numbers;
}

bool Sqids::is_blocked(const std::string& id) const {
    const std::string id_lower = to_lower(id);
    for (const auto& word : blocklist_) {
        if (word.size() > id_lower.size()) {
            continue;
        }
        if (id_lower.size() <= 3 || word.size() <= 3) {
            if (id_lower == word) {
                return true;
            }
        } else if (has_digit(word)) {
            // Words with digits only count at either end (leetspeak inside ids is common).
            if (id_lower.starts_with(word) || id_lower.ends_with(word)) {
                return true;
            }
        } else if (id_lower.find(word) != std::string::npos) {
            return true;
        }
    }
    return false;
}

}  // namespace loupe::builds
