#pragma once
// Reading request bodies field by field with zod-style validation messages (Argos's wording),
// so every plugin words its 400s like Argos: "commit is Invalid string: must match pattern
// /^[0-9a-f]{40}$/". "Nullish" fields accept absence and null. Every reader records its issue
// in the Validation and returns nullopt on failure; call Validation::throw_if_any() at the end.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/http/request.hpp"
#include "loupe/json.hpp"

namespace loupe {

class LOUPE_API JsonReader {
public:
    /// `path` is the dotted prefix of this object's fields ("" at the root, "screenshots.0").
    JsonReader(const Json& object, Validation& validation, std::string path = "");

    /// The field, or nullptr when absent.
    const Json* get(std::string_view key) const;
    bool nullish(std::string_view key) const;
    std::string path_of(std::string_view key) const;

    std::optional<std::string> string(std::string_view key, bool required,
                                      std::size_t min_length = 0);
    /// A string matching `pattern` (ECMAScript regex); the message shows `/<pattern>/`.
    std::optional<std::string> pattern(std::string_view key, bool required,
                                       const std::string& pattern);
    std::optional<std::string> one_of(std::string_view key, bool required,
                                      const std::vector<std::string>& options);
    std::optional<bool> boolean(std::string_view key, bool required = false);
    std::optional<int64_t> integer(std::string_view key, bool required, int64_t minimum);
    std::optional<double> number(std::string_view key, bool required, double minimum,
                                 double maximum);
    /// An array (nullish unless required); the caller reads the items.
    const Json* array(std::string_view key, bool required, std::size_t min_items = 0);
    /// An object (nullish unless required).
    const Json* object(std::string_view key, bool required);

    void issue(std::string_view key, std::string_view message);
    Validation& validation() { return validation_; }

private:
    const Json& object_;
    Validation& validation_;
    std::string path_;
};

/// The request's JSON body when it is an object; otherwise a 400 with the zod wording
/// (" is Invalid input: expected object, received undefined").
LOUPE_API const Json& object_body(Request& request);

/// The SHA-1 commit pattern and the SHA-256 key pattern Argos uses.
inline constexpr const char* sha1_pattern = "^[0-9a-f]{40}$";
inline constexpr const char* sha256_pattern = "^[A-Fa-f0-9]{64}$";
LOUPE_API bool matches(const std::string& text, const std::string& pattern);

}  // namespace loupe
