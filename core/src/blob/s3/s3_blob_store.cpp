#include "blob/s3/s3_blob_store.hpp"

#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeParser.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "blob/download_url.hpp"
#include "blob/local_blob_store.hpp"
#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/encoding.hpp"
#include "loupe/json.hpp"

namespace loupe {
namespace {

/// An HTTP date (Last-Modified, second precision) in epoch milliseconds; 0 when unreadable.
int64_t http_time_ms(const std::string& text) {
    int zone = 0;
    Poco::DateTime time;
    if (text.empty() ||
        !Poco::DateTimeParser::tryParse(Poco::DateTimeFormat::HTTP_FORMAT, text, time, zone)) {
        return 0;
    }
    return (time.timestamp().epochMicroseconds() - static_cast<int64_t>(zone) * 1'000'000) / 1000;
}

/// The base64 SHA-256 S3 expects in x-amz-checksum-sha256, from a (normalized) hex key.
std::string checksum_of_key(const std::string& key) {
    return crypto::base64_encode(crypto::from_hex(key).value_or(""));
}

std::string describe(const S3Response& response) {
    auto code = response.error_code();
    return "HTTP " + std::to_string(response.status) + (code.empty() ? "" : " " + code);
}

[[noreturn]] void fail(const std::string& what, const std::string& name,
                       const S3Response& response) {
    throw S3Error("S3 " + what + " " + name + ": " + describe(response), response.status,
                  response.error_code());
}

std::string iso8601(int64_t epoch_s) {
    const auto compact = sigv4::amz_date(epoch_s);  // 20150830T123600Z
    return compact.substr(0, 4) + "-" + compact.substr(4, 2) + "-" + compact.substr(6, 2) + "T" +
           compact.substr(9, 2) + ":" + compact.substr(11, 2) + ":" + compact.substr(13, 2) + "Z";
}

bool is_inline_type(const std::string& content_type) {
    return content_type.starts_with("image/") && !content_type.starts_with("image/svg");
}

}  // namespace

S3BlobStore::S3BlobStore(S3Settings settings, UrlSigner signer,
                         std::function<std::string()> public_url, uint64_t max_upload_bytes,
                         Logger& log)
    : client_(std::move(settings), &log),
      signer_(std::move(signer)),
      public_url_(std::move(public_url)),
      max_upload_bytes_(max_upload_bytes),
      log_(log) {}

std::string S3BlobStore::blob_name(const std::string& key) const {
    return client_.settings().prefix + "blobs/" + key;
}

std::string S3BlobStore::incoming_name(const std::string& key) const {
    return client_.settings().prefix + "incoming/" + key;
}

void S3BlobStore::check_access() {
    const auto& settings = client_.settings();
    const std::string where = "bucket '" + settings.bucket + "' at " + settings.origin();
    S3Response response;
    try {
        response = client_.send("HEAD", "");
    } catch (const S3Error& error) {
        throw std::runtime_error("S3 " + where + " is unreachable: " + error.what());
    }
    if (response.status == 200) {
        return;
    }
    if (response.status == 404) {
        throw std::runtime_error("S3 " + where + " does not exist (HTTP 404)");
    }
    if (response.status == 401 || response.status == 403) {
        throw std::runtime_error("S3 " + where + " refused the credentials of access key '" +
                                 settings.credentials.access_key + "' (" + describe(response) +
                                 ")");
    }
    throw std::runtime_error("S3 " + where + " answered " + describe(response));
}

bool S3BlobStore::reachable() {
    try {
        return client_.send("HEAD", "").status == 200;
    } catch (const S3Error&) {
        return false;
    }
}

bool S3BlobStore::exists(const std::string& key) {
    if (!is_blob_key(key)) {
        return false;
    }
    const auto normalized = normalize_blob_key(key);
    const auto name = blob_name(normalized);
    const auto response = client_.send("HEAD", name);
    if (response.status == 200) {
        return true;
    }
    if (response.status != 404) {
        fail("HEAD", name, response);
    }
    if (promote_incoming(normalized).has_value()) {
        return true;
    }
    // Another caller may have moved the same upload between the two reads above (it reads
    // incoming/, writes blobs/, then deletes incoming/): the blob is then there.
    const auto again = client_.send("HEAD", name);
    if (again.status != 200 && again.status != 404) {
        fail("HEAD", name, again);
    }
    return again.status == 200;
}

std::vector<std::string> S3BlobStore::missing(const std::vector<std::string>& keys) {
    std::vector<char> present(keys.size(), 0);
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    const auto work = [&] {
        for (std::size_t i = next++; i < keys.size(); i = next++) {
            try {
                present[i] = exists(keys[i]) ? 1 : 0;
            } catch (const std::exception&) {  // reported on the calling thread, below
                std::lock_guard lock(failure_mutex);
                failure = failure ? failure : std::current_exception();
            }
        }
    };
    const auto threads = std::min<std::size_t>(keys.size(), client_.settings().parallel_requests);
    std::vector<std::thread> workers;
    for (std::size_t i = 1; i < threads; ++i) {
        workers.emplace_back(work);
    }
    work();
    for (auto& worker : workers) {
        worker.join();
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
    std::vector<std::string> absent;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (!present[i]) {
            absent.push_back(keys[i]);
        }
    }
    return absent;
}

std::optional<int64_t> S3BlobStore::promote_incoming(const std::string& key) {
    const auto name = incoming_name(key);
    const auto response = client_.send("GET", name);
    if (response.status == 404) {
        return std::nullopt;
    }
    if (response.status != 200) {
        fail("GET", name, response);
    }
    const bool too_large = response.body.size() > max_upload_bytes_;
    const bool matches = !too_large && crypto::sha256_hex(response.body) == key;
    if (matches) {
        write(blob_name(key), response.body);
    } else {
        log_.warn("blobs.upload_refused",
                  {{"key", key},
                   {"size", std::to_string(response.body.size())},
                   {"reason", too_large ? "too large" : "content does not hash to its key"}});
    }
    // Gone either way: promoted, or refused so an honest client can upload it again.
    const auto removed = client_.send("DELETE", name);
    if (removed.status != 204 && removed.status != 200 && removed.status != 404) {
        fail("DELETE", name, removed);
    }
    if (!matches) {
        return std::nullopt;
    }
    return http_time_ms(response.header("last-modified"));
}

std::optional<BlobInfo> S3BlobStore::stat(const std::string& key) {
    if (!is_blob_key(key)) {
        return std::nullopt;
    }
    const auto normalized = normalize_blob_key(key);
    // An upload waiting in incoming/ is a write of these bytes even when the blob was stored
    // before (exists() answers from blobs/ alone): it is verified and moved first, and the
    // blob's time is that upload's, as a local store's file is rewritten by every upload.
    const auto uploaded_at = promote_incoming(normalized);
    const auto name = blob_name(normalized);
    const auto response = client_.send("HEAD", name);
    if (response.status == 404) {
        return std::nullopt;
    }
    if (response.status != 200) {
        fail("HEAD", name, response);
    }
    return BlobInfo{normalized, std::stoull(response.header("content-length")),
                    uploaded_at.value_or(http_time_ms(response.header("last-modified")))};
}

std::string S3BlobStore::put(std::span<const uint8_t> bytes) {
    const std::string_view view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const auto key = crypto::sha256_hex(view);
    write(blob_name(key), view);
    return key;
}

void S3BlobStore::write_verified(const std::string& key, std::string_view bytes) {
    write(blob_name(normalize_blob_key(key)), bytes);
}

void S3BlobStore::write(const std::string& name, std::string_view bytes) {
    if (bytes.size() > client_.settings().multipart_threshold) {
        write_multipart(name, bytes);
        return;
    }
    const auto response = client_.send("PUT", name, {}, {}, bytes);
    if (response.status != 200) {
        fail("PUT", name, response);
    }
}

void S3BlobStore::write_multipart(const std::string& name, std::string_view bytes) {
    auto created = client_.send("POST", name, {{"uploads", ""}});
    if (created.status != 200) {
        fail("POST ?uploads", name, created);
    }
    const auto start = created.body.find("<UploadId>");
    const auto end = created.body.find("</UploadId>");
    if (start == std::string::npos || end == std::string::npos) {
        throw S3Error("S3 multipart upload of " + name + ": no UploadId in the answer", 200, "");
    }
    const auto upload_id = created.body.substr(start + 10, end - start - 10);
    try {
        std::string completion = "<CompleteMultipartUpload>";
        const auto part_size = client_.settings().part_size;
        int number = 1;
        for (std::size_t offset = 0; offset < bytes.size(); offset += part_size, ++number) {
            const auto part = bytes.substr(offset, part_size);
            const auto uploaded = client_.send(
                "PUT", name, {{"partNumber", std::to_string(number)}, {"uploadId", upload_id}}, {},
                part);
            if (uploaded.status != 200) {
                fail("PUT part", name, uploaded);
            }
            completion += "<Part><PartNumber>" + std::to_string(number) + "</PartNumber><ETag>" +
                          uploaded.header("etag") + "</ETag></Part>";
        }
        completion += "</CompleteMultipartUpload>";
        const auto completed = client_.send("POST", name, {{"uploadId", upload_id}},
                                            {{"content-type", "application/xml"}}, completion);
        // S3 may answer 200 with an <Error> body when completion fails late.
        if (completed.status != 200 || !completed.error_code().empty()) {
            fail("complete multipart", name, completed);
        }
    } catch (const std::exception&) {
        try {
            client_.send("DELETE", name, {{"uploadId", upload_id}});
        } catch (const std::exception&) {
            // The bucket's lifecycle rules clean up what this could not abort.
        }
        throw;
    }
}

std::optional<std::string> S3BlobStore::read(const std::string& key) {
    if (!is_blob_key(key)) {
        return std::nullopt;
    }
    const auto name = blob_name(normalize_blob_key(key));
    auto response = client_.send("GET", name);
    if (response.status == 404) {
        return std::nullopt;
    }
    if (response.status != 200) {
        fail("GET", name, response);
    }
    return std::move(response.body);
}

std::optional<std::string> S3BlobStore::read_prefix(const std::string& key, std::size_t max_bytes) {
    if (!is_blob_key(key)) {
        return std::nullopt;
    }
    if (max_bytes == 0) {
        return stat(key) ? std::optional<std::string>("") : std::nullopt;
    }
    const auto name = blob_name(normalize_blob_key(key));
    auto response =
        client_.send("GET", name, {}, {{"range", "bytes=0-" + std::to_string(max_bytes - 1)}});
    if (response.status == 404) {
        return std::nullopt;
    }
    if (response.status == 416) {
        return std::string();  // an empty object has no byte 0
    }
    if (response.status != 200 && response.status != 206) {
        fail("GET range", name, response);
    }
    if (response.body.size() > max_bytes) {
        response.body.resize(max_bytes);  // a server that ignored the range
    }
    return std::move(response.body);
}

std::optional<std::string> S3BlobStore::local_path(const std::string&) {
    return std::nullopt;
}

bool S3BlobStore::remove(const std::string& key) {
    if (!stat(key)) {
        return false;
    }
    const auto name = blob_name(normalize_blob_key(key));
    const auto response = client_.send("DELETE", name);
    if (response.status != 204 && response.status != 200) {
        fail("DELETE", name, response);
    }
    return true;
}

std::string S3BlobStore::signed_put_url(const std::string& key, const std::string& content_type,
                                        int64_t ttl_ms) {
    const auto normalized = normalize_blob_key(key);
    // Signed, so it cannot be altered; S3 itself only enforces a checksum sent as a header,
    // which the Argos CLI does not send, hence the verification in exists().
    S3Pairs query{{"x-amz-checksum-sha256", checksum_of_key(normalized)}};
    (void)content_type;  // any type may be PUT; the type served back is chosen at download
    return client_.presign("PUT", incoming_name(normalized), query, ttl_ms / 1000, now_ms() / 1000);
}

std::pair<std::string, std::vector<std::pair<std::string, std::string>>>
S3BlobStore::signed_post_form(const std::string& key, const std::string& content_type,
                              int64_t ttl_ms) {
    const auto& settings = client_.settings();
    const auto normalized = normalize_blob_key(key);
    const int64_t now_s = now_ms() / 1000;
    const auto date = sigv4::amz_date(now_s);
    const auto credential = settings.credentials.access_key + "/" +
                            sigv4::credential_scope(date.substr(0, 8), settings.scope);
    std::vector<std::pair<std::string, std::string>> fields{
        {"key", incoming_name(normalized)},
        {"Content-Type", content_type},
        {"x-amz-checksum-algorithm", "SHA256"},
        {"x-amz-checksum-sha256", checksum_of_key(normalized)},
        {"X-Amz-Algorithm", "AWS4-HMAC-SHA256"},
        {"X-Amz-Credential", credential},
        {"X-Amz-Date", date},
    };
    if (!settings.credentials.session_token.empty()) {
        fields.emplace_back("X-Amz-Security-Token", settings.credentials.session_token);
    }
    Json conditions = Json::array({Json{{"bucket", settings.bucket}},
                                   Json::array({"content-length-range", 1, max_upload_bytes_})});
    for (const auto& [name, value] : fields) {
        conditions.push_back(Json{{name, value}});
    }
    const Json policy{{"expiration", iso8601(now_s + ttl_ms / 1000)}, {"conditions", conditions}};
    const auto policy_base64 = crypto::base64_encode(policy.dump());
    fields.emplace_back("Policy", policy_base64);
    fields.emplace_back("X-Amz-Signature",
                        sigv4::policy_signature(policy_base64, settings.credentials, settings.scope,
                                                date.substr(0, 8)));
    const auto bucket_path = settings.addressing == S3Addressing::virtual_host
                                 ? std::string("/")
                                 : "/" + settings.bucket;
    return {settings.origin() + bucket_path, std::move(fields)};
}

std::string S3BlobStore::signed_get_url(const std::string& key, const std::string& content_type,
                                        int64_t ttl_ms) {
    const auto normalized = normalize_blob_key(key);
    if (client_.settings().downloads == S3Downloads::proxy) {
        return signed_download_url(public_url_(), signer_, normalized, content_type, ttl_ms);
    }
    S3Pairs query{{"response-content-type", content_type}};
    if (!is_inline_type(content_type)) {
        query.emplace_back("response-content-disposition", "attachment");
    }
    return client_.presign("GET", blob_name(normalized), query, ttl_ms / 1000, now_ms() / 1000);
}

}  // namespace loupe
