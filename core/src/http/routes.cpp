#include "loupe/http/routes.hpp"

namespace loupe {

Routes::~Routes() = default;

}  // namespace loupe
