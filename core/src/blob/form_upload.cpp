#include "blob/form_upload.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/MediaType.h>
#include <Poco/Net/MessageHeader.h>
#include <Poco/Net/MultipartReader.h>
#include <Poco/Net/NameValueCollection.h>

#include <istream>

#include "blob/request_streambuf.hpp"
#include "blob/signed_request.hpp"
#include "blob/upload_receiver.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

/// What the form may add to the file: boundaries, part headers and the signed fields.
constexpr uint64_t form_allowance = 64 * 1024;
constexpr std::size_t max_fields = 32;
constexpr std::size_t max_field_bytes = 8 * 1024;
/// RFC 2046's limit. Poco's part reader also needs it: it copies a boundary candidate into a
/// 1 KiB buffer without bounds checks.
constexpr std::size_t max_boundary_length = 70;

const char* const malformed_form = "Malformed upload form";

std::string boundary_of(const std::optional<std::string>& content_type) {
    if (content_type) {
        const Poco::Net::MediaType type(*content_type);
        if (type.matches("multipart", "form-data") && type.hasParameter("boundary")) {
            const std::string& boundary = type.getParameter("boundary");
            if (!boundary.empty() && boundary.size() <= max_boundary_length) {
                return boundary;
            }
        }
    }
    throw HttpError::bad_request("An upload form must be multipart/form-data with a boundary");
}

std::string part_name(const Poco::Net::MessageHeader& header) {
    std::string disposition;
    Poco::Net::NameValueCollection parameters;
    Poco::Net::MessageHeader::splitParameters(header.get("Content-Disposition", ""), disposition,
                                              parameters);
    return parameters.get("name", "");
}

std::string read_field(std::istream& part) {
    std::string value(max_field_bytes + 1, '\0');
    part.read(value.data(), static_cast<std::streamsize>(value.size()));
    value.resize(static_cast<std::size_t>(part.gcount()));
    if (value.size() > max_field_bytes) {
        throw HttpError::bad_request(malformed_form);
    }
    return value;
}

std::optional<std::string> field(const Poco::Net::NameValueCollection& fields,
                                 const std::string& name) {
    if (!fields.has(name)) {
        return std::nullopt;
    }
    return fields.get(name);
}

/// Reads the parts before `file` into `fields` (names compared case-insensitively) and
/// returns the header of the file part.
Poco::Net::MessageHeader read_fields(Poco::Net::MultipartReader& reader,
                                     Poco::Net::NameValueCollection& fields) {
    for (std::size_t count = 1; reader.hasNextPart(); ++count) {
        if (count > max_fields + 1) {
            throw HttpError::bad_request("The upload form has too many fields");
        }
        Poco::Net::MessageHeader header;
        reader.nextPart(header);
        const std::string name = part_name(header);
        if (name == "file") {
            return header;
        }
        fields.set(name, read_field(reader.stream()));
    }
    throw HttpError::bad_request("The upload form has no file field");
}

Response receive(Request& request, LocalBlobStore& store, UploadLimits limits, Logger& log) {
    const std::string boundary = boundary_of(request.header("Content-Type"));
    const std::optional<std::size_t> declared = request.content_length();
    if (declared && *declared > limits.max_bytes + form_allowance) {
        throw upload_too_large(limits.max_bytes);  // before reading a byte of it
    }
    RequestStreamBuf body_buffer(request);
    std::istream body(&body_buffer);
    Poco::Net::MultipartReader reader(body, boundary);
    Poco::Net::NameValueCollection fields;
    const Poco::Net::MessageHeader file_header = read_fields(reader, fields);

    const std::string key =
        require_blob_key(field(fields, "key").value_or(""), "Invalid upload key");
    const SignedFields signed_fields{field(fields, "Content-Type"), field(fields, "expires"),
                                     field(fields, "signature")};
    require_signature(store.signer(), "POST", key, signed_fields, now_seconds(),
                      "Invalid or expired upload signature");
    const std::optional<std::string> file_type =
        file_header.has("Content-Type") ? std::optional(file_header.get("Content-Type"))
                                        : std::nullopt;
    require_signed_content_type(file_type, *signed_fields.content_type);

    UploadReceiver receiver(store, key, limits.max_bytes);
    std::istream& file = reader.stream();
    receiver.receive([&file](char* buffer, std::size_t size) {
        file.read(buffer, static_cast<std::streamsize>(size));
        return static_cast<std::size_t>(file.gcount());
    });
    if (declared && body_buffer.reached_end() && body_buffer.bytes_read() < *declared) {
        throw HttpError::bad_request("Upload ended after " +
                                     std::to_string(body_buffer.bytes_read()) + " of " +
                                     std::to_string(*declared) + " bytes");
    }
    const BlobInfo stored = receiver.publish(log);
    if (limits.uploaded_bytes != nullptr) {
        limits.uploaded_bytes->add(stored.size);
    }
    return Response::no_content();
}

}  // namespace

Response receive_form_upload(Request& request, LocalBlobStore& store, UploadLimits limits,
                             Logger& log) {
    try {
        return receive(request, store, limits, log);
    } catch (const Poco::Exception&) {  // the multipart parser's: a broken form, not our fault
        throw HttpError::bad_request(malformed_form);
    }
}

}  // namespace loupe
