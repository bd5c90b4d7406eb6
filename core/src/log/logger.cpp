#include "loupe/log/logger.hpp"

namespace loupe {

Logger::~Logger() = default;

}  // namespace loupe
