// Key functions of SDK interfaces whose implementations live elsewhere in the core, so their
// typeinfo and vtables exist once, in libloupe-core.
#include "loupe/blob/blob_references.hpp"
#include "loupe/cli/commands.hpp"
#include "loupe/host.hpp"
#include "loupe/http/listeners.hpp"
#include "loupe/services/services.hpp"

namespace loupe {

Host::~Host() = default;
Services::~Services() = default;
Commands::~Commands() = default;
ProjectFields::~ProjectFields() = default;
BlobReferences::~BlobReferences() = default;
Listener::~Listener() = default;
Listeners::~Listeners() = default;

}  // namespace loupe
