// POST /uploads: the secure upload form (`postUrl` + `fields`, multipart/form-data).

#include <doctest/doctest.h>

#include "unit/core/blob/blob_test_http.hpp"
#include "unit/core/blob/blob_test_server.hpp"

namespace loupe {
namespace {

constexpr int64_t form_ttl_ms = int64_t{30} * 60 * 1000;

/// The form the store signs for `key`, carrying `file`.
blob_test::UploadForm signed_form(blob_test::BlobTestServer& server, const std::string& key,
                                  const std::string& file,
                                  const std::string& content_type = "image/png") {
    auto [url, fields] = server.store.signed_post_form(key, content_type, form_ttl_ms);
    REQUIRE(server.target(url) == "/uploads");
    blob_test::UploadForm form;
    form.fields = std::move(fields);
    form.file = file;
    form.file_content_type = content_type;
    return form;
}

blob_test::HttpAnswer post(blob_test::BlobTestServer& server, const blob_test::UploadForm& form,
                           bool chunked = false) {
    return blob_test::http_send(
        server.port,
        {"POST", "/uploads", form.body(), {{"Content-Type", form.content_type()}}, chunked});
}

void set_field(blob_test::UploadForm& form, const std::string& name, const std::string& value) {
    for (auto& [field, current] : form.fields) {
        if (field == name) {
            current = value;
        }
    }
}

}  // namespace

TEST_CASE("POST /uploads: a signed form stores the file under its SHA-256") {
    blob_test::BlobTestServer server;
    // Random bytes hold CR, LF and dashes: the boundary search must not trip on them.
    const std::string bytes = blob_test::random_bytes(512 * 1024, 21);
    const std::string key = blob_test::sha256_hex(bytes);

    const blob_test::HttpAnswer result = post(server, signed_form(server, key, bytes));
    CHECK(result.status == 204);
    CHECK(result.body.empty());
    CHECK(server.store.read(key) == bytes);
    CHECK(server.temporary_files().empty());
    CHECK(server.upload_count() == 1);
}

TEST_CASE("POST /uploads: a chunked form, extra fields and fields after the file are fine") {
    blob_test::BlobTestServer server;
    const std::string bytes = "\r\n--" + blob_test::random_bytes(3000, 22) + "\r\n";
    const std::string key = blob_test::sha256_hex(bytes);
    blob_test::UploadForm form = signed_form(server, key, bytes);
    form.fields.insert(form.fields.begin(), {"acl", "private"});
    form.fields_after_file = {{"ignored", "as S3 does"}};

    CHECK(post(server, form, true).status == 204);
    CHECK(server.store.read(key) == bytes);

    // A file part without its own Content-Type takes the signed one; a re-upload is accepted.
    form.file_content_type.clear();
    CHECK(post(server, form).status == 204);
    CHECK(server.upload_count() == 2);
}

TEST_CASE("POST /uploads: bad signatures and a mismatched file type are 403") {
    blob_test::BlobTestServer server;
    const std::string bytes = "a tiny png";
    const std::string key = blob_test::sha256_hex(bytes);
    const Json refused = {{"error", "Invalid or expired upload signature"}};

    blob_test::UploadForm tampered = signed_form(server, key, bytes);
    set_field(tampered, "signature", std::string(64, '0'));
    blob_test::UploadForm retyped = signed_form(server, key, bytes);
    set_field(retyped, "Content-Type", "text/html");
    retyped.file_content_type = "text/html";
    blob_test::UploadForm expired = signed_form(server, key, bytes);
    const int64_t past = now_ms() / 1000 - 5;
    set_field(expired, "expires", std::to_string(past));
    set_field(expired, "signature", server.store.signer().sign("POST", key, "image/png", past));
    blob_test::UploadForm put_signed = signed_form(server, key, bytes);
    const int64_t later = now_ms() / 1000 + 60;
    set_field(put_signed, "expires", std::to_string(later));
    set_field(put_signed, "signature", server.store.signer().sign("PUT", key, "image/png", later));
    blob_test::UploadForm unsigned_form = signed_form(server, key, bytes);
    unsigned_form.fields = {{"key", key}, {"Content-Type", "image/png"}};

    for (const blob_test::UploadForm* form :
         {&tampered, &retyped, &expired, &put_signed, &unsigned_form}) {
        const blob_test::HttpAnswer result = post(server, *form);
        CHECK(result.status == 403);
        CHECK(result.json() == refused);
    }

    blob_test::UploadForm wrong_file_type = signed_form(server, key, bytes);
    wrong_file_type.file_content_type = "image/jpeg";
    const blob_test::HttpAnswer mismatch = post(server, wrong_file_type);
    CHECK(mismatch.status == 403);
    CHECK(mismatch.json() ==
          Json{{"error", "Content-Type does not match the signed upload (expected image/png)"}});

    CHECK_FALSE(server.store.exists(key));
    CHECK(server.temporary_files().empty());
    CHECK(server.upload_count() == 0);
}

TEST_CASE("POST /uploads: wrong content, an empty file or too large a file is refused") {
    blob_test::BlobTestServer server(UploadLimits{4096});
    const std::string expected = blob_test::random_bytes(1000, 23);
    const std::string key = blob_test::sha256_hex(expected);

    const std::string other = blob_test::random_bytes(1000, 24);
    const blob_test::HttpAnswer mismatch = post(server, signed_form(server, key, other));
    CHECK(mismatch.status == 400);
    CHECK(mismatch.json() ==
          Json{{"error", "Uploaded content does not match its key (expected " + key + ", got " +
                             blob_test::sha256_hex(other) + ")"}});

    const blob_test::HttpAnswer empty =
        post(server, signed_form(server, blob_test::sha256_hex(""), ""));
    CHECK(empty.status == 400);
    CHECK(empty.json() == Json{{"error", "Upload is empty"}});

    const Json too_large = {{"error", "Upload exceeds the maximum size of 4096 bytes"}};
    const std::string big = blob_test::random_bytes(5000, 25);
    const blob_test::HttpAnswer streamed =
        post(server, signed_form(server, blob_test::sha256_hex(big), big));
    CHECK(streamed.status == 413);
    CHECK(streamed.json() == too_large);
    const std::string huge = blob_test::random_bytes(200 * 1024, 26);
    const blob_test::HttpAnswer declared =
        post(server, signed_form(server, blob_test::sha256_hex(huge), huge));
    CHECK(declared.status == 413);
    CHECK(declared.json() == too_large);

    CHECK_FALSE(server.store.exists(key));
    CHECK_FALSE(server.store.exists(blob_test::sha256_hex(big)));
    CHECK(server.temporary_files().empty());
    CHECK(server.upload_count() == 0);
}

TEST_CASE("POST /uploads: a broken form is a 400") {
    blob_test::BlobTestServer server;
    const std::string bytes = "content";
    const std::string key = blob_test::sha256_hex(bytes);
    const blob_test::UploadForm good = signed_form(server, key, bytes);

    const auto send = [&](const std::string& body, const std::string& content_type) {
        return blob_test::http_send(
            server.port, {"POST", "/uploads", body, {{"Content-Type", content_type}}, false});
    };
    const Json malformed = {{"error", "Malformed upload form"}};
    const Json not_a_form = {
        {"error", "An upload form must be multipart/form-data with a boundary"}};

    CHECK(send(good.body(), "application/json").json() == not_a_form);
    CHECK(send(good.body(), "multipart/form-data").json() == not_a_form);
    CHECK(send(good.body(), "multipart/form-data; boundary=" + std::string(71, 'b')).json() ==
          not_a_form);
    CHECK(send("no boundary anywhere", good.content_type()).json() == malformed);
    // Cut before the file part: no file field.
    const std::string body = good.body();
    const std::string file_part =
        "--" + good.boundary + "\r\nContent-Disposition: form-data; name=\"file\"";
    const std::string head = body.substr(0, body.find(file_part));
    const blob_test::HttpAnswer no_file =
        send(head + "--" + good.boundary + "--\r\n", good.content_type());
    CHECK(no_file.status == 400);
    CHECK(no_file.json() == Json{{"error", "The upload form has no file field"}});

    blob_test::UploadForm keyless = good;
    keyless.fields.erase(keyless.fields.begin());
    const blob_test::HttpAnswer missing_key = post(server, keyless);
    CHECK(missing_key.status == 400);
    CHECK(missing_key.json() == Json{{"error", "Invalid upload key"}});

    blob_test::UploadForm crowded = good;
    for (int i = 0; i < 40; ++i) {
        crowded.fields.insert(crowded.fields.begin(), {"f" + std::to_string(i), "v"});
    }
    CHECK(post(server, crowded).json() == Json{{"error", "The upload form has too many fields"}});

    blob_test::UploadForm long_field = good;
    long_field.fields.insert(long_field.fields.begin(), {"note", std::string(9000, 'n')});
    CHECK(post(server, long_field).json() == malformed);

    CHECK_FALSE(server.store.exists(key));
    CHECK(server.temporary_files().empty());
}

TEST_CASE("POST /uploads: a large binary file goes through the form intact") {
    blob_test::BlobTestServer server;
    const std::string bytes = blob_test::random_bytes(6 * 1024 * 1024, 27);
    const std::string key = blob_test::sha256_hex(bytes);

    CHECK(post(server, signed_form(server, key, bytes)).status == 204);
    const std::optional<BlobInfo> info = server.store.stat(key);
    REQUIRE(info);
    CHECK(info->size == bytes.size());
    CHECK(blob_test::sha256_hex(*server.store.read(key)) == key);
}

}  // namespace loupe
