// The blob-store contract on the local folder (the S3 run is in s3_blob_store_test.cpp).

#include <doctest/doctest.h>

#include "blob/local_blob_store.hpp"
#include "support/test_database.hpp"
#include "unit/core/blob/blob_store_contract.hpp"

namespace loupe {

TEST_CASE("blob store contract: LocalBlobStore") {
    test::TempDir folder;
    LocalBlobStore store(folder.path() + "/blobs", UrlSigner(std::string(64, 'k')),
                         [] { return std::string("https://loupe.example.com"); });
    blob_test::check_blob_store_contract(store, 7u << 20);
}

}  // namespace loupe
