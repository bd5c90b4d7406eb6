#pragma once
// Random text from OpenSSL's generator.

#include <cstddef>
#include <string>

namespace loupe::deployments {

/// `bytes` random bytes as lower-case hex.
std::string random_hex(std::size_t bytes);
/// `length` characters of [a-z1-9], uniformly drawn (as Argos draws deployment slugs).
std::string random_slug_chars(std::size_t length);

}  // namespace loupe::deployments
