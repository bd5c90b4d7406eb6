#include "loupe/http/request.hpp"

namespace loupe {

Request::~Request() = default;

}  // namespace loupe
