#include "blob/upload_routes.hpp"

#include "blob/blob_download.hpp"
#include "blob/form_upload.hpp"
#include "blob/put_upload.hpp"

namespace loupe {

void add_blob_routes(Routes& routes, LocalBlobStore& store, UploadLimits limits, Logger& log) {
    const RouteOptions streamed{BodyMode::stream};
    routes.add(
        Method::put, "/uploads/{key}", AuthRequirement::none,
        RouteAccess::public_route("the signed URL (HMAC over method, key, type, expiry) is the "
                                  "credential; the bytes must hash to the key"),
        [&store, limits, &log](Request& request) {
            return receive_put_upload(request, store, limits, log);
        },
        streamed);
    routes.add(
        Method::post, "/uploads", AuthRequirement::none,
        RouteAccess::public_route("the signed form fields are the credential; the bytes must "
                                  "hash to the key"),
        [&store, limits, &log](Request& request) {
            return receive_form_upload(request, store, limits, log);
        },
        streamed);
    add_blob_download_route(routes, store.signer(), store);
}

void add_blob_download_route(Routes& routes, const UrlSigner& signer, BlobStore& store) {
    // Streamed so a stray body on a GET is never read or parsed.
    routes.add(
        Method::get, "/blobs/{key}", AuthRequirement::none,
        RouteAccess::public_route("the signed URL (HMAC over method, key, type, expiry) is the "
                                  "credential"),
        [&signer, &store](Request& request) { return serve_blob(request, signer, store); },
        RouteOptions{BodyMode::stream});
}

}  // namespace loupe
