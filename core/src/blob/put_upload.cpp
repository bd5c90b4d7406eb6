#include "blob/put_upload.hpp"

#include "blob/signed_request.hpp"
#include "blob/upload_receiver.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe {

Response receive_put_upload(Request& request, LocalBlobStore& store, UploadLimits limits,
                            Logger& log) {
    const std::string key = require_blob_key(request.param("key"), "Invalid upload key");
    const SignedFields fields{request.query("contentType"), request.query("expires"),
                              request.query("signature")};
    require_signature(store.signer(), "PUT", key, fields, now_seconds(),
                      "Invalid or expired upload signature");
    require_signed_content_type(request.header("Content-Type"), *fields.content_type);

    const std::optional<std::size_t> declared = request.content_length();
    if (declared && *declared > limits.max_bytes) {
        throw upload_too_large(limits.max_bytes);  // before reading a byte of it
    }
    if (declared && *declared == 0) {
        throw HttpError::bad_request("Upload is empty");
    }

    UploadReceiver receiver(store, key, limits.max_bytes);
    receiver.receive(
        [&request](char* buffer, std::size_t size) { return request.read(buffer, size); });
    if (declared && receiver.size() != *declared) {
        throw HttpError::bad_request("Upload ended after " + std::to_string(receiver.size()) +
                                     " of " + std::to_string(*declared) + " bytes");
    }
    const BlobInfo stored = receiver.publish(log);
    if (limits.uploaded_bytes != nullptr) {
        limits.uploaded_bytes->add(stored.size);
    }
    return Response::json({{"key", stored.key}, {"size", stored.size}});
}

}  // namespace loupe
