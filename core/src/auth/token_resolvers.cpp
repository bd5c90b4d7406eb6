// Key function of the SDK's TokenResolvers interface, so its typeinfo and vtable exist once,
// in libloupe-core.
#include "loupe/auth/token_resolvers.hpp"

namespace loupe {

TokenResolvers::~TokenResolvers() = default;

}  // namespace loupe
